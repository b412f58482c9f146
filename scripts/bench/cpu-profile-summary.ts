import { readFileSync } from 'node:fs';

/** The parts of a V8 .cpuprofile (node --cpu-prof) this reads. */
interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number } }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileShare {
  readonly name: string;
  /** Share of all sampled time, idle included, 0..1. */
  readonly share: number;
}

export interface ProfileSummary {
  readonly byPackage: ProfileShare[];
  readonly byFunction: ProfileShare[];
}

/** Where a frame belongs: its npm package, the project file, a node: module, or V8's own label. */
function ownerOf(url: string, functionName: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/.][^/]*)\//.exec(url);
  if (inPackage && !url.includes('node_modules/.cache/')) return inPackage[1]!;
  const inProject = /\/(src|scripts)\/(.+)$/.exec(url);
  if (inProject) return `${inProject[1]}/${inProject[2]}`;
  if (url.startsWith('node:')) return url;
  return url ? 'other' : `(${functionName || 'native'})`.replace(/^\(\((.*)\)\)$/, '($1)');
}

function ranked(totals: Map<string, number>, all: number, top: number): ProfileShare[] {
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, top).map(([name, time]) => ({ name, share: time / all }));
}

/** Self time by package and by function: where a service's CPU goes under a load. */
export function summariseCpuProfile(path: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let all = 0;
  profile.samples.forEach((id, i) => {
    const time = profile.timeDeltas[i] ?? 0;
    const frame = nodes.get(id)?.callFrame;
    if (!frame) return;
    all += time;
    const owner = ownerOf(frame.url, frame.functionName);
    byPackage.set(owner, (byPackage.get(owner) ?? 0) + time);
    const fn = `${frame.functionName || '(anonymous)'} ${owner}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + time);
  });
  return { byPackage: ranked(byPackage, all, top), byFunction: ranked(byFunction, all, top) };
}

export function formatShares(shares: readonly ProfileShare[]): string {
  return shares.map(({ name, share }) => `${(100 * share).toFixed(1).padStart(5)}%  ${name}`).join('\n');
}
