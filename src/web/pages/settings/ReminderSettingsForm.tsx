import { MessageSquareText } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { ProfileResponse } from '../../../shared/profile';
import { Button } from '../../components/ui/Button';
import { AutomatedMessagesFields } from './AutomatedMessagesFields';
import { settingsCopy } from './copy';
import { OptedOutNotice } from './OptedOutNotice';
import { changedSettings, settingsFromProfile, type ReminderSettings } from './settings-form';
import { useUpdateSettings } from './settings-queries';
import { SettingsSection } from './SettingsSection';
import { UnsavedChangesDialog } from './UnsavedChangesDialog';
import { useLeaveGuard } from './useLeaveGuard';

/**
 * The automated-messages card with Save and Cancel. The form holds only what the user changed on
 * top of the stored profile, so Save is enabled exactly when the two differ and sends only that.
 */
export function ReminderSettingsForm({ profile }: { profile: ProfileResponse }) {
  const stored = settingsFromProfile(profile);
  const [edits, setEdits] = useState<Partial<ReminderSettings>>({});
  const form: ReminderSettings = { ...stored, ...edits };
  const changes = changedSettings(stored, form);
  const unsaved = Object.keys(changes).length > 0;
  const update = useUpdateSettings();
  const blocker = useLeaveGuard(unsaved);

  /** True when everything is saved. */
  const save = async (): Promise<boolean> => {
    if (!unsaved) return true;
    try {
      await update.mutateAsync(changes);
    } catch {
      toast.error(settingsCopy.updateFailedTitle, { description: settingsCopy.updateFailed });
      return false;
    }
    // Keep only edits made while the save was in flight.
    setEdits((current) => Object.fromEntries(Object.entries(current).filter(([field, value]) => changes[field as keyof typeof changes] !== value)));
    toast.success(settingsCopy.updated);
    return true;
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };

  return (
    <>
      <form onSubmit={submit}>
        <SettingsSection
          icon={MessageSquareText}
          title={settingsCopy.messagesTitle}
          description="The texts we send to your phone. Turning them off never cancels your subscription."
        >
          {profile.is_opted_out && <OptedOutNotice />}
          <AutomatedMessagesFields
            value={form}
            onChange={(change) => setEdits((current) => ({ ...current, ...change }))}
            optedOut={profile.is_opted_out}
          />
          <div className="flex flex-col gap-3 rounded-b-2xl border-t border-stone-100 bg-stone-50/70 px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-7">
            <p aria-live="polite" className="text-sm text-stone-500">
              {unsaved ? 'You have unsaved changes.' : 'Your settings are saved.'}
            </p>
            <div className="flex gap-2 sm:justify-end">
              <Button variant="secondary" className="flex-1 sm:flex-none" onClick={() => setEdits({})} disabled={!unsaved || update.isPending}>
                {settingsCopy.cancel}
              </Button>
              <Button type="submit" className="flex-1 sm:flex-none sm:min-w-24" disabled={!unsaved} loading={update.isPending}>
                {update.isPending ? settingsCopy.saving : settingsCopy.save}
              </Button>
            </div>
          </div>
        </SettingsSection>
      </form>
      <UnsavedChangesDialog
        open={blocker.state === 'blocked'}
        onStay={() => blocker.reset?.()}
        onDiscard={() => blocker.proceed?.()}
        onSave={async () => {
          const saved = await save();
          if (saved) blocker.proceed?.();
          else blocker.reset?.();
          return saved;
        }}
      />
    </>
  );
}
