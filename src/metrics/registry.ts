// A minimal Prometheus registry: counters, gauges and histograms with labels, rendered in the text
// exposition format 0.0.4. Small on purpose: ces exposes a dozen series and needs no client library.
// Label values are bounded by the callers (route patterns, methods, status codes, fixed enums).

type Labels = Record<string, string>;

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  render(): string[];
}

interface Counter {
  inc(labels?: Labels, by?: number): void;
}

interface Histogram {
  observe(labels: Labels, value: number): void;
}

export interface Registry {
  counter(name: string, help: string): Counter;
  histogram(name: string, help: string, buckets: readonly number[]): Histogram;
  /** A gauge whose samples are read when the registry is rendered. */
  gauge(name: string, help: string, collect: () => Array<{ labels?: Labels; value: number }>): void;
  render(): string;
}

export function createRegistry(): Registry {
  const families: Family[] = [];
  const add = (family: Family): void => {
    if (families.some((f) => f.name === family.name)) throw new Error(`metric ${family.name} registered twice`);
    families.push(family);
  };
  return {
    counter(name, help) {
      const values = new Map<string, { labels: Labels; value: number }>();
      add({ name, help, type: 'counter', render: () => [...values.values()].map((s) => sample(name, s.labels, s.value)) });
      return {
        inc(labels = {}, by = 1) {
          const key = labelKey(labels);
          const series = values.get(key);
          if (series) series.value += by;
          else values.set(key, { labels, value: by });
        },
      };
    },
    histogram(name, help, buckets) {
      const sorted = [...buckets].sort((a, b) => a - b);
      const values = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
      add({
        name,
        help,
        type: 'histogram',
        render: () =>
          [...values.values()].flatMap((s) => [
            // Buckets are cumulative in the exposition format.
            ...sorted.map((le, i) => sample(`${name}_bucket`, { ...s.labels, le: formatNumber(le) }, s.counts[i])),
            sample(`${name}_bucket`, { ...s.labels, le: '+Inf' }, s.count),
            sample(`${name}_sum`, s.labels, s.sum),
            sample(`${name}_count`, s.labels, s.count),
          ]),
      });
      return {
        observe(labels, value) {
          const key = labelKey(labels);
          let series = values.get(key);
          if (!series) {
            series = { labels, counts: sorted.map(() => 0), sum: 0, count: 0 };
            values.set(key, series);
          }
          for (let i = 0; i < sorted.length; i++) if (value <= sorted[i]) series.counts[i]++;
          series.sum += value;
          series.count++;
        },
      };
    },
    gauge(name, help, collect) {
      add({ name, help, type: 'gauge', render: () => collect().map((s) => sample(name, s.labels ?? {}, s.value)) });
    },
    render() {
      const lines: string[] = [];
      for (const family of families) {
        lines.push(`# HELP ${family.name} ${family.help.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}`);
        lines.push(`# TYPE ${family.name} ${family.type}`);
        lines.push(...family.render());
      }
      return `${lines.join('\n')}\n`;
    },
  };
}

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join('\u0000');
}

function sample(name: string, labels: Labels, value: number): string {
  const names = Object.keys(labels);
  const rendered = names.length === 0 ? '' : `{${names.map((k) => `${k}="${escapeLabelValue(labels[k])}"`).join(',')}}`;
  return `${name}${rendered} ${formatNumber(value)}`;
}

function escapeLabelValue(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}
