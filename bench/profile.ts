// Summarises a V8 CPU profile (a .cpuprofile written by `node --cpu-prof`, see BENCH_CPU_PROF in
// bench/lib.ts): the functions with the most self time, and self time by package or source file.
//   npx tsx bench/profile.ts [file.cpuprofile] [top N] [--callers <regex>] [--from s] [--to s]
// --callers: the call paths (PROFILE_DEPTH frames up, 6) into functions whose name matches, by self
// time. --from/--to: only the samples between these seconds of the profile (the timeline printed
// first shows the busy share of each second, to find the phases of a benchmark).
// Without a file, the main thread's profile of the newest run in bench/results/profiles.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, profileDir, table } from './lib';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The newest profile directory's largest profile: the main thread's (the loader thread's is small). */
function newest(): string {
  const dirs = readdirSync(profileDir)
    .map((d) => join(profileDir, d))
    .filter((d) => statSync(d).isDirectory())
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (dirs.length === 0) throw new Error(`no profile in ${profileDir}`);
  const files = readdirSync(dirs[0]!)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(dirs[0]!, f));
  if (files.length === 0) throw new Error(`no profile in ${dirs[0]}`);
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}

/** Where a frame comes from: a package under node_modules, a workspace file, node itself, or V8. */
function origin(url: string): string {
  if (!url) return '(v8/native)';
  if (url.startsWith('node:')) return 'node:internal';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const m = /\/(services|packages)\/(.*)$/.exec(url);
  return m ? `${m[1]}/${m[2]}` : url;
}

const args = process.argv.slice(2);
const callersAt = args.indexOf('--callers');
const callers = callersAt >= 0 ? new RegExp(args.splice(callersAt, 2)[1]!) : undefined;
const option = (name: string): number | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args.splice(at, 2)[1]) : undefined;
};
const fromS = option('--from') ?? 0;
const toS = option('--to') ?? Infinity;
const file = args.find((a) => a.endsWith('.cpuprofile')) ?? newest();
const top = Number(args.find((a) => /^\d+$/.test(a)) ?? 40);
const depth = Number(process.env.PROFILE_DEPTH ?? 6);
const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const self = new Map<number, number>();
const idleIds = new Set(p.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id));
const timeline: Array<{ busy: number; all: number }> = [];
let atUs = 0;
let totalUs = 0;
p.samples.forEach((id, i) => {
  const d = p.timeDeltas[i] ?? 0;
  atUs += d;
  const second = Math.floor(atUs / 1e6);
  const t = (timeline[second] ??= { busy: 0, all: 0 });
  t.all += d;
  if (!idleIds.has(id)) t.busy += d;
  if (atUs < fromS * 1e6 || atUs > toS * 1e6) return;
  totalUs += d;
  self.set(id, (self.get(id) ?? 0) + d);
});
console.log(`busy share by second: ${timeline.map((t, s) => `${s}:${t ? fmt((t.busy / t.all) * 100) : 0}`).join(' ')}`);
let idleUs = 0;
const fn = new Map<string, number>();
const orig = new Map<string, number>();
for (const [id, us] of self) {
  const f = byId.get(id)!.callFrame;
  if (f.functionName === '(idle)') {
    idleUs += us;
    continue;
  }
  const key = `${f.functionName || '(anonymous)'} ${origin(f.url)}:${f.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  orig.set(origin(f.url), (orig.get(origin(f.url)) ?? 0) + us);
}
const busyUs = totalUs - idleUs;
const pct = (us: number) => `${fmt((us / busyUs) * 100, 1)}%`;
const rows = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, us]) => [pct(us), fmt(us / 1000), k]);
console.log(
  `${file}\n${fmt(totalUs / 1e6, 1)} s profiled, ${fmt(busyUs / 1e6, 1)} s busy (${fmt((busyUs / totalUs) * 100)}%); shares below are of the busy time\n`,
);
console.log(table([['self', 'ms', 'function'], ...rows(fn, top)]));
console.log();
console.log(table([['self', 'ms', 'package or file'], ...rows(orig, 30)]));
const parentOf = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);
if (process.env.PROFILE_INCLUSIVE) {
  // Time with the function anywhere on the (synchronous) stack, each sample counted once per function.
  const incl = new Map<string, number>();
  for (const [id, us] of self) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const f = byId.get(at)!.callFrame;
      if (!f.url || f.url.startsWith('node:')) continue;
      const key = `${f.functionName || '(anonymous)'} ${origin(f.url)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      incl.set(key, (incl.get(key) ?? 0) + us);
    }
  }
  console.log();
  console.log(table([['inclusive', 'ms', 'function'], ...rows(incl, top)]));
}
if (callers) {
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anonymous)'} ${origin(f.url)}`;
  };
  const paths = new Map<string, number>();
  for (const [id, us] of self) {
    if (!callers.test(byId.get(id)!.callFrame.functionName)) continue;
    const chain: string[] = [];
    for (let at: number | undefined = id; at !== undefined && chain.length < depth; at = parent.get(at))
      if (!label(at).endsWith('node:internal') || chain.length === 0) chain.push(label(at));
    const key = chain.join(' < ');
    paths.set(key, (paths.get(key) ?? 0) + us);
  }
  console.log();
  console.log(table([['self', 'ms', `call path into ${callers.source}`], ...rows(paths, top)]));
}
