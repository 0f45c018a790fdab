import { Spinner } from '../../components/ui/Spinner';

/** The loading state of a guarded page while the session is being restored. */
export function FullPageSpinner({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-3 text-brand-700">
      <Spinner className="size-8" label={label} />
      <p className="text-sm text-stone-500">{label}</p>
    </div>
  );
}
