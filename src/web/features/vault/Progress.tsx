/** A labelled progress bar for sealing or opening the journal. */
export function ProgressBar(props: { label: string; done: number; total: number; text: string }) {
  const percent = props.total === 0 ? 100 : Math.min(100, Math.round((props.done / props.total) * 100));
  return (
    <div>
      <div className="mb-1.5 flex justify-between text-sm text-stone-600">
        <span>{props.label}</span>
        <span>{props.text}</span>
      </div>
      <div
        role="progressbar"
        aria-label={props.label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={props.text}
        className="h-2 overflow-hidden rounded-full bg-stone-200"
      >
        <div className="h-full rounded-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
