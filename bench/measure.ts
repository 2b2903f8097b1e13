// One autocannon run with its percentiles, as bench/transition.ts and bench/partner-invoices.ts
// report them: every response's time is kept, so p50 / p95 / p99 are exact, not autocannon's buckets.
import autocannon from 'autocannon';

export interface Measured { name: string; rps: number; p50: number; p95: number; p99: number; ok: number; errors: number }

export async function measure(name: string, options: autocannon.Options & { connections: number; duration: number }): Promise<Measured> {
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ timeout: 30, ...options }, (error, done) => (error ? reject(error) : resolve(done)));
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? NaN;
  return { name, rps: result.requests.total / options.duration, p50: at(0.5), p95: at(0.95), p99: at(0.99), ok: result['2xx'], errors: result.errors + result.non2xx + result.timeouts };
}

/** The results as the markdown table docs/benchmarks.md holds. */
export function printTable(results: readonly Measured[]) {
  console.log('| target | req/s | p50 ms | p95 ms | p99 ms | 2xx | errors |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.ok} | ${r.errors} |`);
}

/** Warms the route up (autocannon, WARMUP seconds), then measures it. */
export async function warmAndMeasure(name: string, options: autocannon.Options & { connections: number; duration: number }, warmupSeconds = 3): Promise<Measured> {
  await autocannon({ timeout: 30, ...options, duration: warmupSeconds });
  return measure(name, options);
}

/**
 * The last line of every benchmark (issue 27), for a script to read:
 * `RESULT <name> value=<number> unit=<unit> target=<number> met=<yes|no>`. `atMost`: the target is
 * a ceiling (a p95, a size); otherwise a floor (a throughput, a ratio).
 */
export function printResult(name: string, value: number, unit: string, target: number, atMost = false) {
  const met = atMost ? value <= target : value >= target;
  console.log(`RESULT ${name} value=${Number(value.toFixed(1))} unit=${unit} target=${target} met=${met ? 'yes' : 'no'}`);
}

/** A throughput as a percentage of its reference measured in the same run (target: a floor in percent). */
export function printRatioResult(name: string, measured: Measured, reference: Measured, targetPercent: number, unit: string) {
  printResult(name, (measured.rps / reference.rps) * 100, unit, targetPercent);
}
