/**
 * A reader of the Prometheus text exposition format, strict enough for tests: every line must be a
 * comment (`# HELP`, `# TYPE`) or one sample, `name{label="value",…} number`, or it throws.
 */

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y;

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const match = LABEL.exec(text);
    if (!match) throw new Error(`not a Prometheus label set: ${line}`);
    labels[match[1] as string] = (match[2] as string).replace(/\\(.)/g, (_, escaped: string) =>
      escaped === 'n' ? '\n' : escaped,
    );
  }
  return labels;
}

function parseValue(text: string, line: string): number {
  // Prometheus reads these as Go's ParseFloat does, whatever their case (prom-client writes `Nan`).
  const special = text.toLowerCase();
  if (special === '+inf' || special === 'inf') return Number.POSITIVE_INFINITY;
  if (special === '-inf') return Number.NEGATIVE_INFINITY;
  if (special === 'nan') return Number.NaN;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`not a Prometheus value: ${line}`);
  return value;
}

export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const declared = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
      if (!declared) throw new Error(`not a Prometheus comment: ${line}`);
      if (declared[1] === 'TYPE') types.set(declared[2] as string, declared[3] as string);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus sample: ${line}`);
    samples.push({
      name: match[1] as string,
      labels: match[2] ? parseLabels(match[2], line) : {},
      value: parseValue(match[3] as string, line),
    });
  }
  // Every sample belongs to a declared metric (a histogram's _bucket, _sum and _count to their family).
  for (const sample of samples) {
    const family = sample.name.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(sample.name) && !types.has(family)) throw new Error(`sample of no declared metric: ${sample.name}`);
  }
  return samples;
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
