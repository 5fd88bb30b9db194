//! Throughput of the document readers: writes N MB of ~500-byte nested NDJSON documents
//! (deterministic) to a temporary file, then times `input::read` with 20 paths on one
//! thread and on two, best of three runs each.
//!
//! `cargo run --release --example read_bench -- 200`, or on a file of your own with the
//! paths to extract: `cargo run --release --example read_bench -- FILE /a /b/c ...`
//! (`-- --once FILE /a ...`: one run on two threads, as `benches/speed.py` times it).

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::time::Instant;

use pkadvisor::engine::{KeyPath, PkValueRef};
use pkadvisor::field::Field;
use pkadvisor::input::{self, Document, NoProgress, ReadOptions, Sink, Source};

const PATHS: [&str; 20] = [
    "/id",
    "/tenantId",
    "/userId",
    "/sessionId",
    "/deviceId",
    "/type",
    "/ts",
    "/date",
    "/region",
    "/version",
    "/amount",
    "/flags/beta",
    "/geo/country",
    "/geo/city",
    "/user/tier",
    "/user/email",
    "/payload/total",
    "/tags",
    "/missing",
    "/user/name",
];

/// A sink that touches every field, so that nothing is optimised away.
#[derive(Default)]
struct Touch {
    docs: u64,
    bytes: u64,
    check: u64,
}

impl Sink for Touch {
    fn document(&mut self, d: &Document<'_>) {
        self.docs += 1;
        self.bytes += d.bytes;
        for f in d.fields {
            self.check = self.check.wrapping_add(match f {
                Field::Scalar(PkValueRef::Str(s)) => s.len() as u64,
                Field::Scalar(PkValueRef::Number(n)) => n.to_bits() & 0xff,
                Field::Scalar(_) => 1,
                Field::Missing => 2,
                Field::Object | Field::Array => 3,
            });
        }
    }

    fn merge(&mut self, o: Self) {
        self.docs += o.docs;
        self.bytes += o.bytes;
        self.check = self.check.wrapping_add(o.check);
    }
}

/// xorshift64*: deterministic values.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn document(r: &mut Rng, out: &mut String) {
    let (t, u) = (r.below(500), r.below(100_000));
    let (day, sec) = (r.below(28) + 1, r.below(86_400));
    let _ = write!(
        out,
        r#"{{"id":"{:016x}-{:08x}","tenantId":"tenant-{t:04}","userId":"user-{u}","sessionId":"s-{:x}","deviceId":"dev-{}","type":"{}","ts":"2024-05-{day:02}T{:02}:{:02}:{:02}.{:03}Z","date":"2024-05-{day:02}","region":"{}","version":{},"amount":{}.{:02},"flags":{{"beta":{},"premium":{}}},"geo":{{"country":"{}","city":"City \u00e9{}","lat":{}.{},"lon":-{}.{}}},"user":{{"name":"Name {u}","email":"user{u}@example.com","tier":"{}"}},"tags":["t{}","t{}"],"payload":{{"items":[{{"sku":"SKU-{}","qty":{}}},{{"sku":"SKU-{}","qty":{}}}],"total":{}.5}},"note":"{}"}}"#,
        r.next(),
        r.below(1 << 32),
        r.next() >> 20,
        r.below(5000),
        ["click", "view", "purchase", "login"][r.below(4) as usize],
        sec / 3600,
        sec / 60 % 60,
        sec % 60,
        r.below(1000),
        ["westeurope", "eastus", "southeastasia"][r.below(3) as usize],
        r.below(9),
        r.below(10_000),
        r.below(100),
        r.below(2) == 0,
        r.below(2) == 0,
        ["NL", "US", "SG", "DE"][r.below(4) as usize],
        r.below(300),
        r.below(90),
        r.below(1_000_000),
        r.below(180),
        r.below(1_000_000),
        ["gold", "silver", "bronze"][r.below(3) as usize],
        r.below(50),
        r.below(50),
        r.below(10_000),
        r.below(9) + 1,
        r.below(10_000),
        r.below(9) + 1,
        r.below(100_000),
        "lorem ipsum ".repeat(r.below(4) as usize),
    );
}

fn generate(path: &std::path::Path, megabytes: u64) -> std::io::Result<(u64, u64)> {
    let mut w = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    let (mut rng, mut line) = (Rng(0x9e37_79b9_7f4a_7c15), String::new());
    let (mut bytes, mut docs) = (0u64, 0u64);
    while bytes < megabytes * 1_000_000 {
        line.clear();
        document(&mut rng, &mut line);
        line.push('\n');
        w.write_all(line.as_bytes())?;
        bytes += line.len() as u64;
        docs += 1;
    }
    w.flush()?;
    Ok((bytes, docs))
}

fn time(path: &std::path::Path, paths: &[KeyPath], threads: usize) -> (f64, u64) {
    let opts = ReadOptions {
        threads,
        ..ReadOptions::default()
    };
    let start = Instant::now();
    let sources = [Source::file(path)];
    let (sink, _) =
        input::read(&sources, paths, &opts, &Touch::default, &NoProgress).expect("valid input");
    std::hint::black_box(sink.check);
    (start.elapsed().as_secs_f64(), sink.docs)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // `--once`: one run on two threads, for timing the whole process from outside.
    let once = args.first().is_some_and(|a| a == "--once");
    if once {
        args.remove(0);
    }
    if let Some(file) = args.first().filter(|a| std::path::Path::new(a).is_file()) {
        let paths: Vec<KeyPath> = args[1..]
            .iter()
            .map(|p| KeyPath::parse(p).expect("a document path"))
            .collect();
        let bytes = std::fs::metadata(file).expect("a readable file").len();
        println!(
            "{file}: {:.1} MB, {} paths",
            bytes as f64 / 1e6,
            paths.len()
        );
        if once {
            let (seconds, docs) = time(std::path::Path::new(file), &paths, 2);
            println!("threads=2: {seconds:.3} s, {docs} documents");
        } else {
            report(std::path::Path::new(file), &paths, bytes, None);
        }
        return;
    }
    let megabytes: u64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(200);
    let path = std::env::temp_dir().join(format!(
        "pkadvisor-read-bench-{}.ndjson",
        std::process::id()
    ));
    let (bytes, docs) = generate(&path, megabytes).expect("write the sample");
    println!(
        "{:.1} MB, {docs} documents of {} bytes on average, {} paths",
        bytes as f64 / 1e6,
        bytes / docs,
        PATHS.len()
    );
    let paths: Vec<KeyPath> = PATHS.iter().map(|p| KeyPath::parse(p).unwrap()).collect();
    report(&path, &paths, bytes, Some(docs));
    if std::env::var_os("KEEP").is_none() {
        let _ = std::fs::remove_file(&path);
    } else {
        println!("kept {}", path.display());
    }
}

/// Best of three runs on one thread and on two.
fn report(path: &std::path::Path, paths: &[KeyPath], bytes: u64, docs: Option<u64>) {
    for threads in [1, 2] {
        let runs: Vec<(f64, u64)> = (0..3).map(|_| time(path, paths, threads)).collect();
        let best = runs.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
        let docs = docs.unwrap_or(runs[0].1);
        println!(
            "threads={threads}: {:.3} s, {:.0} MB/s, {:.2} M documents/s",
            best,
            bytes as f64 / 1e6 / best,
            docs as f64 / 1e6 / best
        );
    }
}
