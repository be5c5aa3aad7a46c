//! `xiangqi-train`: trains the NNUE evaluation from `xiangqi datagen` files and writes the
//! quantised network (and a checkpoint to resume from) after every epoch.

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;
use xiangqi_engine::nnue::active_features;
use xiangqi_rules::{Position, START_FEN};
use xiangqi_train::checkpoint::Checkpoint;
use xiangqi_train::loader::{Filters, LoadSettings, load_files};
use xiangqi_train::model::{Network, Shape};
use xiangqi_train::optimiser::Adam;
use xiangqi_train::quantise::write_network;
use xiangqi_train::train::{TrainConfig, Trainer};

/// Train the engine's NNUE evaluation on self-play data.
#[derive(Parser, Debug)]
#[command(name = "xiangqi-train", version)]
struct Args {
    /// Data files written by `xiangqi datagen`.
    #[arg(long, required = true, num_args = 1..)]
    data: Vec<PathBuf>,
    /// Neurons per perspective (a multiple of 16).
    #[arg(long, default_value_t = 256)]
    hidden: usize,
    /// Output buckets by the number of pieces on the board (1 to 16; 1: one output layer).
    #[arg(long, default_value_t = 1)]
    buckets: usize,
    /// Palace buckets: 1 (none), or 6 for inputs of their own for each point of the palace
    /// where a side's general stands (mirror-reduced; trained factorised).
    #[arg(long, default_value_t = 1)]
    palace: usize,
    /// Units of a second hidden layer between the first layer's SCReLU and the output (0:
    /// none; at most 32), with a clipped ReLU.
    #[arg(long, default_value_t = 0)]
    second: usize,
    /// Epochs to train (a resumed run continues up to this epoch).
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Learning rate (Adam).
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Multiply the learning rate by --lr-gamma after every this many epochs (0: never).
    #[arg(long, default_value_t = 8)]
    lr_step: usize,
    /// Factor of each learning-rate drop.
    #[arg(long, default_value_t = 0.3)]
    lr_gamma: f32,
    /// Weight of the search score in the target; the game result gets 1 − lambda.
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Decoupled weight decay (AdamW) per unit of learning rate; 0 for none.
    #[arg(long, default_value_t = 0.0)]
    weight_decay: f32,
    /// Threads computing gradients (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the initial weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also train on every position mirrored left to right.
    #[arg(long)]
    mirror: bool,
    /// Fraction of games held out to measure the validation loss.
    #[arg(long, default_value_t = 0.02)]
    val_fraction: f64,
    /// Drop the first this many plies of every game.
    #[arg(long, default_value_t = 0)]
    skip_plies: usize,
    /// In drawn games, drop the positions more than this many plies after the last capture.
    #[arg(long)]
    drawn_ending_plies: Option<u32>,
    /// The quantised network to write (rewritten after every epoch).
    #[arg(long)]
    out: PathBuf,
    /// The checkpoint to write after every epoch (default: the --out path with `.ckpt` added).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Also write the network to this file after each epoch that lowers the validation loss
    /// (the lowest of this run; a resumed run starts afresh).
    #[arg(long)]
    best: Option<PathBuf>,
    /// Continue from this checkpoint instead of random weights.
    #[arg(long)]
    resume: Option<PathBuf>,
}

fn main() -> ExitCode {
    match run(Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xiangqi-train: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<(), String> {
    if args.buckets == 0 || args.buckets > xiangqi_engine::nnue::net::MAX_BUCKETS {
        return Err(format!(
            "--buckets {} is not between 1 and {}",
            args.buckets,
            xiangqi_engine::nnue::net::MAX_BUCKETS
        ));
    }
    let palace_buckets = xiangqi_engine::nnue::PALACE_BUCKETS;
    if args.palace != 1 && args.palace != palace_buckets {
        return Err(format!(
            "--palace {} is neither 1 nor {palace_buckets}",
            args.palace
        ));
    }
    let most = xiangqi_engine::nnue::net::MAX_SECOND_LAYER;
    if args.second > most {
        return Err(format!(
            "--second {} is more than {most} units",
            args.second
        ));
    }
    if args.hidden == 0 || !args.hidden.is_multiple_of(16) {
        return Err(format!(
            "--hidden {} is not a positive multiple of 16",
            args.hidden
        ));
    }
    if !(0.0..=1.0).contains(&args.lambda) {
        return Err(format!("--lambda {} is not between 0 and 1", args.lambda));
    }
    if !(0.0..1.0).contains(&args.val_fraction) {
        return Err(format!(
            "--val-fraction {} is not in [0, 1)",
            args.val_fraction
        ));
    }
    if args.batch == 0 {
        return Err("--batch must be at least 1".into());
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let checkpoint_path = args.checkpoint.clone().unwrap_or_else(|| {
        let mut p = args.out.clone().into_os_string();
        p.push(".ckpt");
        PathBuf::from(p)
    });
    let shape = Shape {
        hidden: args.hidden,
        buckets: args.buckets,
        palace: args.palace,
        second: args.second,
    };
    let (net, adam, epochs_done) = match &args.resume {
        Some(path) => {
            let c = Checkpoint::load(path).map_err(|e| e.to_string())?;
            if c.net.shape() != shape {
                return Err(format!(
                    "checkpoint {} has hidden {}, {} buckets, {} palace buckets and {} \
                     second-layer units, but --hidden is {}, --buckets {}, --palace {} and --second {}",
                    path.display(),
                    c.net.hidden(),
                    c.net.buckets(),
                    c.net.palace(),
                    c.net.second(),
                    args.hidden,
                    args.buckets,
                    args.palace,
                    args.second
                ));
            }
            println!(
                "resuming from {} after epoch {}",
                path.display(),
                c.epochs_done
            );
            (c.net, c.adam, c.epochs_done)
        }
        None => {
            let net = Network::random(shape, args.seed);
            let adam = Adam::new(net.params().len());
            (net, adam, 0)
        }
    };

    let load_start = Instant::now();
    let settings = LoadSettings {
        filters: Filters {
            skip_plies: args.skip_plies,
            drawn_ending_plies: args.drawn_ending_plies,
        },
        mirror: args.mirror,
        validation_fraction: args.val_fraction,
        seed: args.seed,
        palace: args.palace,
    };
    let (split, counts) = load_files(&args.data, &settings, |w| eprintln!("warning: {w}"))
        .map_err(|e| e.to_string())?;
    println!("{counts}");
    println!(
        "training on {} positions, validating on {} (loaded in {:.1}s)",
        split.train.len(),
        split.validation.len(),
        load_start.elapsed().as_secs_f64()
    );
    if split.train.is_empty() {
        return Err("no training positions left after filtering".into());
    }

    let config = TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_step: args.lr_step,
        lr_gamma: args.lr_gamma,
        lambda: args.lambda,
        weight_decay: args.weight_decay,
        threads,
        seed: args.seed,
    };
    println!(
        "hidden {}  buckets {}  palace {}  second {}  batch {}  lr {} (×{} every {} epochs)  weight decay {}  lambda {}  mirror {}  threads {}  epochs {}..={}",
        args.hidden,
        args.buckets,
        args.palace,
        args.second,
        args.batch,
        args.lr,
        args.lr_gamma,
        args.lr_step,
        args.weight_decay,
        args.lambda,
        args.mirror,
        threads,
        epochs_done + 1,
        args.epochs
    );
    let mut trainer = Trainer::new(net, adam, epochs_done, config);
    let mut best_loss = f64::INFINITY;
    trainer.run(&split.train, &split.validation, |trainer, report| {
        println!("{report}");
        if let (Some(best), Some(loss)) = (&args.best, report.validation_loss)
            && loss < best_loss
        {
            best_loss = loss;
            write_network(best, &trainer.net)
                .map_err(|e| format!("writing {}: {e}", best.display()))?;
            println!(
                "best validation loss so far: network written to {}",
                best.display()
            );
        }
        let checkpoint = Checkpoint {
            net: trainer.net.clone(),
            adam: trainer.adam.clone(),
            epochs_done: trainer.epochs_done,
        };
        checkpoint
            .save(&checkpoint_path)
            .map_err(|e| e.to_string())?;
        write_network(&args.out, &trainer.net)
            .map_err(|e| format!("writing {}: {e}", args.out.display()))
    })?;
    println!(
        "network written to {}, checkpoint to {}",
        args.out.display(),
        checkpoint_path.display()
    );
    for (name, fen) in REFERENCE_POSITIONS {
        let cp = evaluate_fen(&trainer.net, fen)?;
        println!("{name}: {cp:+.0} cp for the side to move");
    }
    Ok(())
}

/// Positions whose evaluations show at a glance whether a network has learnt the basics.
const REFERENCE_POSITIONS: [(&str, &str); 4] = [
    ("start position, Red to move", START_FEN),
    (
        "start position, Black to move",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    ),
    (
        "Red to move, Black without its a-file chariot",
        "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "Black to move, Black without its a-file chariot",
        "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1",
    ),
];

/// The float network's evaluation of `fen` in centipawns, from the side to move's view.
fn evaluate_fen(net: &Network, fen: &str) -> Result<f32, String> {
    let pos: Position = fen
        .parse()
        .map_err(|e| format!("reference position {fen}: {e}"))?;
    let side = pos.side_to_move();
    let (mut stm, mut other) = (Vec::new(), Vec::new());
    active_features(&pos, side, net.palace(), &mut stm);
    active_features(&pos, side.opponent(), net.palace(), &mut other);
    let narrow = |v: Vec<usize>| v.into_iter().map(|f| f as u16).collect::<Vec<u16>>();
    Ok(net.evaluate_cp(&narrow(stm), &narrow(other)))
}
