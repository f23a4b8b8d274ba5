// How the runtime benchmarks measure: rounds of fixed length after a warm-up, the median.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 400);

/**
 * Items per second of `pass`, which handles `items` items each time it is called: it is
 * called until a round's time is up, rounds are counted after a warm-up of two rounds'
 * length (for the JIT to settle), and the median round is the answer.
 */
export function throughput(pass, items) {
  const warm = performance.now();
  while (performance.now() - warm < 2 * ROUND_MS) pass();
  const rates = [];
  for (let round = 0; round < ROUNDS; round++) {
    let count = 0;
    const started = performance.now();
    let elapsed = 0;
    while (elapsed < ROUND_MS) {
      pass();
      count += items;
      elapsed = performance.now() - started;
    }
    rates.push((count / elapsed) * 1000);
  }
  return rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)];
}
