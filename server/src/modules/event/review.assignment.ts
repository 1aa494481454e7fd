/**
 * Gives works to judge groups: never to a group with a judge of the work's school, as evenly as the rule allows
 * (when any even split exists, group sizes differ by at most one), at most `worksPerGroup` works a group when that
 * is above 0. Works a group already has count toward its size.
 *
 * Groups are filled level by level: every group up to `level` works (as far as the own-school rule lets it), then
 * one more each, until every work is placed. Each level is a bipartite matching with capacities, grown by
 * augmenting paths, which may move an already placed work to another group it fits to make room: a group never
 * loses a work between levels, so once all groups reach the even share's floor they stay there. The answer
 * depends only on the works' ids, schools and the groups, never on the order they were given in.
 */

export interface AssignableWork {
  id: string;
  /** The team's school; null fits every group. */
  schoolId: string | null;
}

export interface AssignableGroup {
  group: number;
  /** The schools of the group's judges. */
  schoolIds: readonly (string | null)[];
  /** Works the group has already been given. */
  existing: number;
}

/**
 * A round's groups 1…`groupCount` that have judges, with their judges' schools and the works each has already been
 * given: what `assignWorks` places works in.
 */
export function judgeGroups(
  groupCount: number,
  judges: readonly { groupNo: number; schoolId: string | null }[],
  existing: (group: number) => number = () => 0,
): AssignableGroup[] {
  return Array.from({ length: groupCount }, (_, i) => i + 1)
    .map((group) => ({
      group,
      schoolIds: judges.filter((j) => j.groupNo === group).map((j) => j.schoolId),
      existing: existing(group),
    }))
    .filter((g) => g.schoolIds.length > 0);
}

export type Assignment = { ok: true; groups: Map<string, number> } | { ok: false; unplaced: string[] };

export function assignWorks(
  works: readonly AssignableWork[],
  groups: readonly AssignableGroup[],
  worksPerGroup = 0,
): Assignment {
  const sortedWorks = [...works].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const sortedGroups = [...groups].sort((a, b) => a.group - b.group);
  if (sortedWorks.length === 0) return { ok: true, groups: new Map() };
  const fits = sortedWorks.map((w) =>
    sortedGroups.flatMap((g, gi) => (w.schoolId !== null && g.schoolIds.includes(w.schoolId) ? [] : [gi])),
  );
  const hopeless = sortedWorks.filter((_, wi) => fits[wi]!.length === 0).map((w) => w.id);
  if (hopeless.length > 0) return { ok: false, unplaced: hopeless };

  const limit = worksPerGroup > 0 ? worksPerGroup : Number.POSITIVE_INFINITY;
  const placed: (number | null)[] = sortedWorks.map(() => null);
  const members: number[][] = sortedGroups.map(() => []);
  const size = (gi: number) => sortedGroups[gi]!.existing + members[gi]!.length;

  /** One augmenting path from work `start` to a group with room under `cap`, breadth first (shortest moves). */
  function augment(start: number, cap: () => number): boolean {
    const fromGroup = new Map<number, { work: number; prevGroup: number | null }>();
    let frontier: { work: number; prevGroup: number | null }[] = [{ work: start, prevGroup: null }];
    const seenWorks = new Set([start]);
    while (frontier.length > 0) {
      const next: typeof frontier = [];
      for (const step of frontier) {
        for (const gi of fits[step.work]!) {
          if (fromGroup.has(gi) || gi === placed[step.work]) continue;
          fromGroup.set(gi, step);
          if (size(gi) < cap()) {
            // Walk back: each work on the path moves into the group found after it.
            let target: number | null = gi;
            let cursor: { work: number; prevGroup: number | null } | undefined = step;
            while (cursor && target !== null) {
              const from = placed[cursor.work] ?? null;
              if (from !== null) members[from] = members[from]!.filter((w) => w !== cursor!.work);
              placed[cursor.work] = target;
              members[target]!.push(cursor.work);
              target = cursor.prevGroup;
              cursor = target === null ? undefined : fromGroup.get(target);
            }
            return true;
          }
          for (const w of members[gi]!) {
            if (seenWorks.has(w)) continue;
            seenWorks.add(w);
            next.push({ work: w, prevGroup: gi });
          }
        }
      }
      frontier = next;
    }
    return false;
  }

  const total = sortedGroups.reduce((sum, g) => sum + g.existing, 0) + sortedWorks.length;
  const highest = Math.max(...sortedGroups.map((g) => g.existing)) + sortedWorks.length;
  let level = Math.max(1, Math.floor(total / sortedGroups.length));
  while (placed.includes(null) && level <= highest) {
    const cap = () => Math.min(level, limit);
    for (let wi = 0; wi < sortedWorks.length; wi++) if (placed[wi] === null) augment(wi, cap);
    if (worksPerGroup > 0 && level >= worksPerGroup) break;
    level++;
  }
  const unplaced = sortedWorks.filter((_, wi) => placed[wi] === null).map((w) => w.id);
  if (unplaced.length > 0) return { ok: false, unplaced };
  return { ok: true, groups: new Map(sortedWorks.map((w, wi) => [w.id, sortedGroups[placed[wi]!]!.group])) };
}
