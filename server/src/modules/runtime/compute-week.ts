const DAY_MS = 86_400_000;

function zonedParts(instant: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    weekday: 'short',
  }).formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return {
    year: Number(get('year')),
    month: Number(get('month')),
    day: Number(get('day')),
    hour: Number(get('hour')),
    minute: Number(get('minute')),
    second: Number(get('second')),
    weekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(get('weekday')),
  };
}

/** The instant of a wall-clock midnight in a time zone. */
function zonedMidnight(utcDateMs: number, timeZone: string): Date {
  let guess = utcDateMs;
  for (let i = 0; i < 2; i++) {
    const p = zonedParts(new Date(guess), timeZone);
    const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess = utcDateMs - (asUtc - guess);
  }
  return new Date(guess);
}

/**
 * The compute week containing `now`: it starts Monday 00:00 in the customer's time zone (default Asia/Shanghai).
 * `weekStart` is that Monday's date, the key of the usage row, so a new week starts from zero by itself.
 */
export function computeWeek(now: Date, timeZone = 'Asia/Shanghai'): { weekStart: string; resetsAt: Date } {
  const p = zonedParts(now, timeZone);
  const monday = Date.UTC(p.year, p.month - 1, p.day) - p.weekday * DAY_MS;
  return {
    weekStart: new Date(monday).toISOString().slice(0, 10),
    resetsAt: zonedMidnight(monday + 7 * DAY_MS, timeZone),
  };
}
