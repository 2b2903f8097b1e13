// Websocket fan-out benchmark (docs/benchmarks.md "Websocket fan-out").
//   node --import tsx bench/ws.ts [--connections=5000] [--subscribers=1000] [--messages=200]
// (or env WS_CONNECTIONS / WS_SUBSCRIBERS / WS_MESSAGES; bench/ws.sh raises the file-descriptor limit first).
// The server runs in a child process; this process holds raw `ws` clients that speak Pusher protocol 7
// (handshake, pusher:subscribe, pusher:pong), and publishes through the HTTP API with the `pusher` SDK.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import PusherServer from 'pusher';
import { WebSocket } from 'ws';

const argument = (name: string, fallback: number) => {
  const flag = process.argv.find((value) => value.startsWith(`--${name}=`));
  return Number(flag?.split('=')[1] ?? process.env[`WS_${name.toUpperCase()}`] ?? fallback);
};
const connections = argument('connections', 5000);
const subscribers = Math.min(argument('subscribers', 1000), connections);
const messages = argument('messages', 200);
const credentials = { appId: '1', key: 'bench-key', secret: 'bench-secret' };
const channel = 'bench';
const CONNECT_CONCURRENCY = 250;

interface Memory { rss: number; heapUsed: number; external: number }

function startServer(): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(fileURLToPath(new URL('./ws.server.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, BENCH_CREDENTIALS: JSON.stringify(credentials) },
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.on('message', (message: { type: string; port?: number }) => {
      if (message.type === 'ready') resolve({ child, port: message.port! });
    });
  });
}

function serverMemory(child: ChildProcess): Promise<Memory> {
  return new Promise((resolve) => {
    const onMessage = (message: Memory & { type: string }) => {
      if (message.type !== 'memory') return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.send({ type: 'memory' });
  });
}

/** A protocol-speaking client: resolves once pusher:connection_established arrived; answers server pings. */
function connect(port: number, onEvent: (event: string, data: string | undefined, receivedAt: number) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${credentials.key}?protocol=7&client=js&version=8.6.0`, { perMessageDeflate: false });
    ws.on('message', (raw) => {
      const receivedAt = performance.now();
      const frame = JSON.parse(raw.toString()) as { event: string; data?: string };
      if (frame.event === 'pusher:connection_established') resolve(ws);
      else if (frame.event === 'pusher:ping') ws.send('{"event":"pusher:pong","data":{}}');
      else onEvent(frame.event, frame.data, receivedAt);
    });
    ws.once('error', reject);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const { child, port } = await startServer();
  const baseline = await serverMemory(child);

  const sockets: WebSocket[] = [];
  const latencies: number[] = [];
  const sentAt = new Map<number, number>();
  let subscribed = 0;
  let onAllSubscribed = () => undefined as void;
  const onEvent = (event: string, data: string | undefined, receivedAt: number) => {
    if (event === 'pusher_internal:subscription_succeeded' && ++subscribed === subscribers) onAllSubscribed();
    if (event === 'tick') latencies.push(receivedAt - sentAt.get((JSON.parse(data!) as { seq: number }).seq)!);
  };

  const connectStarted = performance.now();
  for (let start = 0; start < connections; start += CONNECT_CONCURRENCY) {
    const batch = Array.from({ length: Math.min(CONNECT_CONCURRENCY, connections - start) }, () => connect(port, onEvent));
    sockets.push(...(await Promise.all(batch)));
  }
  const connectSeconds = (performance.now() - connectStarted) / 1000;
  const loaded = await serverMemory(child);

  const allSubscribed = new Promise<void>((resolve) => { onAllSubscribed = resolve; });
  for (const ws of sockets.slice(0, subscribers)) ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
  await allSubscribed;

  const sdk = new PusherServer({ ...credentials, host: '127.0.0.1', port: String(port), useTLS: false });
  const occupancy = await (await sdk.get({ path: `/channels/${channel}`, params: { info: 'subscription_count' } })).json() as { subscription_count: number };

  // Sequential publishes, each awaited until every subscriber has it: latency, not queueing, is measured.
  for (let seq = 0; seq < messages; seq++) {
    const expected = (seq + 1) * subscribers;
    sentAt.set(seq, performance.now());
    await sdk.trigger(channel, 'tick', { seq });
    while (latencies.length < expected) await new Promise((resolve) => setImmediate(resolve));
  }

  const held = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
  const sorted = [...latencies].sort((a, b) => a - b);
  const perConnection = (loaded.rss - baseline.rss) / connections;
  const report = {
    connections_requested: connections,
    connections_held: held,
    connect_seconds: Number(connectSeconds.toFixed(2)),
    server_rss_baseline: kb(baseline.rss),
    server_rss_loaded: kb(loaded.rss),
    server_rss_per_idle_connection: kb(perConnection),
    server_heap_per_idle_connection: kb((loaded.heapUsed + loaded.external - baseline.heapUsed - baseline.external) / connections),
    subscribers: occupancy.subscription_count,
    messages,
    deliveries: latencies.length,
    latency_ms: { p50: percentile(sorted, 50).toFixed(2), p95: percentile(sorted, 95).toFixed(2), p99: percentile(sorted, 99).toFixed(2), max: sorted.at(-1)!.toFixed(2) },
  };
  console.log(JSON.stringify(report, null, 2));

  for (const ws of sockets) ws.terminate();
  child.send({ type: 'stop' });
  await once(child, 'exit');
}

await main();
