import { Smartphone } from 'lucide-react';
import { messages } from '../../../shared/messages';
import { JournalNumberLinks } from '../../features/journal-number';
import { SettingsSection } from './SettingsSection';

/** Settings: the number to text, with tap-to-text and save-to-contacts. */
export function JournalNumberSection() {
  return (
    <SettingsSection icon={Smartphone} title={messages.journalNumber.label} description={messages.journalNumber.hint}>
      <JournalNumberLinks className="px-5 pt-4 pb-5 sm:px-7 sm:pb-6" />
    </SettingsSection>
  );
}
