import { CirclePause } from 'lucide-react';
import { toast } from 'sonner';
import { messages } from '../../../shared/messages';
import type { ProfileResponse } from '../../../shared/profile';
import { Alert } from '../../components/ui/Alert';
import { Button } from '../../components/ui/Button';
import { useUpdateSettings } from './settings-queries';

const copy = messages.textPause;

/** "Tue, Dec 1, 5:35 PM EST" in the journal's time zone (the one the PAUSE reply used). */
function pausedUntilText(until: string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' };
  try {
    return new Intl.DateTimeFormat('en-US', { ...options, timeZone }).format(new Date(until));
  } catch {
    return new Intl.DateTimeFormat('en-US', options).format(new Date(until));
  }
}

/** A pause set by texting PAUSE: until when, and a button to end it now (PATCH paused_until: null). */
export function TextPauseNotice({ profile }: { profile: ProfileResponse }) {
  const resume = useUpdateSettings();
  const until = profile.paused_until;
  if (!until || Date.parse(until) <= Date.now()) return null;

  return (
    <section aria-labelledby="text-pause-title" className="rounded-2xl border border-sky-200 bg-sky-50 px-5 py-4 sm:px-7">
      <div className="flex gap-3">
        <CirclePause aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-sky-700" />
        <div className="min-w-0 flex-1 space-y-3">
          <div>
            <h2 id="text-pause-title" className="font-semibold text-sky-950">
              {copy.until(pausedUntilText(until, profile.timezone))}
            </h2>
            <p className="mt-0.5 text-sm leading-6 text-sky-900">{copy.lead}</p>
          </div>
          {resume.isError && <Alert tone="error">{copy.failed}</Alert>}
          <Button
            variant="secondary"
            loading={resume.isPending}
            onClick={() => resume.mutate({ paused_until: null }, { onSuccess: () => toast.success(copy.resumed) })}
          >
            {resume.isPending ? copy.resuming : copy.resume}
          </Button>
        </div>
      </div>
    </section>
  );
}
