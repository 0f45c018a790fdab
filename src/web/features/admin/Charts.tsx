import type { MetricsPoint } from '../../../shared/admin';
import { countOf } from './format';

const WIDTH = 600;
const HEIGHT = 200;
const PAD = { top: 12, right: 12, bottom: 24, left: 36 };

function niceMax(value: number): number {
  if (value <= 4) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s * 4 >= value) ?? magnitude * 10;
  return step * 4;
}

function shortDate(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!match) return iso;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return date.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
}

function Axes({ max, points }: { max: number; points: MetricsPoint[] }) {
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const labelIndexes = points.length <= 1 ? [0] : [0, Math.floor((points.length - 1) / 2), points.length - 1];
  return (
    <g className="text-stone-400" fontSize="10" fill="currentColor">
      {ticks.map((t) => {
        const y = PAD.top + innerH * (1 - t);
        return (
          <g key={t}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} stroke="currentColor" strokeOpacity={t === 0 ? 0.6 : 0.2} />
            <text x={PAD.left - 6} y={y + 3} textAnchor="end">
              {Math.round(max * t)}
            </text>
          </g>
        );
      })}
      {[...new Set(labelIndexes)].map((index) => {
        const point = points[index];
        if (!point) return null;
        const x = PAD.left + (points.length <= 1 ? innerW / 2 : (innerW * index) / (points.length - 1));
        const anchor = points.length <= 1 ? 'middle' : index === 0 ? 'start' : index === points.length - 1 ? 'end' : 'middle';
        return (
          <text key={index} x={x} y={HEIGHT - 6} textAnchor={anchor}>
            {shortDate(point.date)}
          </text>
        );
      })}
    </g>
  );
}

function total(points: MetricsPoint[], key: 'signups' | 'entries') {
  return points.reduce((sum, p) => sum + (p[key] || 0), 0);
}

/** Sign-ups per day as a line with a soft area under it. */
export function LineChart({ points, label }: { points: MetricsPoint[]; label: string }) {
  const max = niceMax(Math.max(0, ...points.map((p) => p.signups)));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const xy = points.map((p, i) => {
    const x = PAD.left + (points.length <= 1 ? innerW / 2 : (innerW * i) / (points.length - 1));
    const y = PAD.top + innerH * (1 - (p.signups || 0) / max);
    return [x, y] as const;
  });
  const line = xy.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
  const base = PAD.top + innerH;
  const area = xy.length > 1 ? `${line} L${xy[xy.length - 1]![0].toFixed(1)},${base} L${xy[0]![0].toFixed(1)},${base} Z` : '';
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${label}: ${total(points, 'signups')} in ${points.length} days`} className="h-auto w-full">
      <Axes max={max} points={points} />
      {area && <path d={area} className="fill-brand-500/10" />}
      <path d={line} fill="none" className="stroke-brand-600" strokeWidth="2" strokeLinejoin="round" strokeLinecap="round" />
      {xy.length <= 31 &&
        xy.map(([x, y], i) => (
          <circle key={i} cx={x} cy={y} r="2.5" className="fill-white stroke-brand-600" strokeWidth="1.5">
            <title>{`${shortDate(points[i]!.date)}: ${countOf(points[i]!.signups, 'sign-up', 'sign-ups')}`}</title>
          </circle>
        ))}
    </svg>
  );
}

/** Journal entries per day as bars. */
export function BarChart({ points, label }: { points: MetricsPoint[]; label: string }) {
  const max = niceMax(Math.max(0, ...points.map((p) => p.entries)));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, points.length);
  const barW = Math.max(1, Math.min(24, slot * 0.7));
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={`${label}: ${total(points, 'entries')} in ${points.length} days`} className="h-auto w-full">
      <Axes max={max} points={points} />
      {points.map((p, i) => {
        const h = (innerH * (p.entries || 0)) / max;
        const x = PAD.left + slot * i + (slot - barW) / 2;
        return (
          <rect key={p.date} x={x} y={PAD.top + innerH - h} width={barW} height={h} rx="2" className="fill-amber-400">
            <title>{`${shortDate(p.date)}: ${countOf(p.entries, 'entry', 'entries')}`}</title>
          </rect>
        );
      })}
    </svg>
  );
}
