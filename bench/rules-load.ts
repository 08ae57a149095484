/**
 * The load generator of `npm run bench:rules`, a process of its own so that neither server
 * pays for the client's parsing: runs autocannon for each job its parent sends over IPC and
 * answers with the counts. With several keys, each connection is its own autocannon run that
 * cycles through its own share of the keys, as independent clients would (in one run every
 * connection starts at the first key and they go through the keys in lockstep).
 */
import autocannon from 'autocannon';

export type LoadJob = {
  url: string;
  headers: Record<string, string>;
  connections: number;
  /** Seconds to run; or, with `once`, each key exactly once (a warm-up over every shop). */
  seconds: number;
  once?: boolean;
  keys: readonly string[];
};

export type LoadResult = { requests: number; seconds: number; errors: number; non2xx: number; notModified: number };

async function run(job: LoadJob): Promise<LoadResult> {
  const requests = job.keys.map((key) => ({ method: 'GET' as const, headers: { ...job.headers, authorization: `Bearer ${key}` } }));
  const lanes = Math.min(job.connections, Math.max(1, job.keys.length));
  const started = process.hrtime.bigint();
  const runs = Array.from({ length: lanes }, (_, i) => {
    const from = Math.floor((i * job.keys.length) / lanes);
    const to = Math.floor(((i + 1) * job.keys.length) / lanes);
    // Each lane cycles through its own share of the keys: together the lanes still ask every
    // shop, and autocannon, which builds every request's bytes before it starts, builds each
    // once (with every lane rotating through all the keys, 10,000 shops cost the load generator
    // ~230 µs a request in those builds, and the app got ~1,000 requests a second).
    const order = requests.slice(from, to);
    const connections = job.keys.length > 1 ? 1 : job.connections;
    return autocannon({
      url: job.url,
      connections,
      pipelining: 1,
      requests: order,
      ...(job.once ? { amount: order.length } : { duration: job.seconds }),
    });
  });
  const results = await Promise.all(runs);
  const sum = (pick: (result: autocannon.Result) => number) => results.reduce((total, result) => total + pick(result), 0);
  return {
    requests: sum((r) => r.requests.total),
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    errors: sum((r) => r.errors + r.timeouts),
    non2xx: sum((r) => r.non2xx),
    notModified: sum((r) => r['3xx']),
  };
}

process.on('message', (message: { type: 'run'; job: LoadJob } | { type: 'stop' }) => {
  if (message.type === 'stop') process.exit(0);
  else void run(message.job).then((result) => process.send?.({ type: 'result', result }));
});

process.send?.({ type: 'ready' });
