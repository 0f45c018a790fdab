import { AlertDialog } from 'radix-ui';
import { useState } from 'react';
import { Button, buttonClasses } from '../../components/ui/Button';
import { cn } from '../../components/ui/cn';
import { overlayClasses, panelClasses } from '../../features/journal/Modal';
import { settingsCopy } from './copy';

/**
 * Spec 2: leaving with unsaved changes asks 'Save your settings?' — stay (Cancel), leave without
 * saving, or save and then leave. A failed save keeps the user here with their changes.
 */
export function UnsavedChangesDialog(props: { open: boolean; onStay: () => void; onDiscard: () => void; onSave: () => Promise<boolean> }) {
  const [saving, setSaving] = useState(false);
  const saveAndLeave = async () => {
    setSaving(true);
    try {
      await props.onSave();
    } finally {
      setSaving(false);
    }
  };
  return (
    <AlertDialog.Root open={props.open} onOpenChange={(open) => !open && !saving && props.onStay()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={cn(panelClasses, 'max-w-md p-6')}>
          <AlertDialog.Title className="font-serif text-xl font-semibold text-ink">{settingsCopy.unsavedTitle}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-sm leading-6 text-stone-600">{settingsCopy.unsaved}</AlertDialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses('ghost')} disabled={saving}>
              {settingsCopy.unsavedStay}
            </AlertDialog.Cancel>
            <Button variant="secondary" onClick={props.onDiscard} disabled={saving}>
              {settingsCopy.unsavedDiscard}
            </Button>
            {/* Not AlertDialog.Action: that would close the dialog before the save is done. */}
            <Button onClick={() => void saveAndLeave()} loading={saving}>
              {saving ? settingsCopy.saving : settingsCopy.unsavedSave}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
