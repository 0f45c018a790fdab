import { ContactRound, Download, Lock, LogOut, MessageSquareText, Settings } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
import { vaultMessages } from '../../../shared/vault-messages';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/DropdownMenu';
import { useAuth } from '../../features/auth/auth-context';
import { useSignOut } from '../../features/auth/useSignOut';
import { useVaultJournal } from '../../features/journal/vault-mode';
import { saveJournalNumberContact, useJournalNumber } from '../../features/journal-number';
import { lockVault } from '../../features/vault/key-store';
import { ACCOUNT_MENU_LABEL, ACCOUNT_MENU_TRIGGER_CLASSES, AccountMenuFace } from './account-menu-trigger';

export interface AccountMenuContentProps {
  onExport?: () => void;
  /** Opened as it mounts: the button was pressed while this code was loading. */
  defaultOpen?: boolean;
  /** Focus goes to the button as it mounts: it replaces the button that had focus. */
  focusTrigger?: boolean;
}

/**
 * The account dropdown of the journal header: the journal number, Settings, Export, Sign Out
 * (spec 2). Loaded after the journal's first screen (AccountMenu.tsx shows its button until then).
 */
export function AccountMenuContent({ onExport, defaultOpen = false, focusTrigger = false }: AccountMenuContentProps) {
  const { user } = useAuth();
  const signOut = useSignOut();
  const journalNumber = useJournalNumber();
  const vault = useVaultJournal();
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (focusTrigger && !defaultOpen) trigger.current?.focus();
    // Only as it replaces the first button.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger ref={trigger} aria-label={ACCOUNT_MENU_LABEL} className={ACCOUNT_MENU_TRIGGER_CLASSES}>
        <AccountMenuFace email={user?.email} />
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {user && <DropdownMenuLabel className="truncate px-2.5 py-1.5 text-xs text-stone-500">{user.email}</DropdownMenuLabel>}
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="px-2.5 pt-1.5 pb-0.5 text-xs text-stone-500">{messages.journalNumber.label}</DropdownMenuLabel>
        <DropdownMenuItem asChild>
          <a href={journalNumber.smsHref} className="tabular-nums">
            <MessageSquareText aria-hidden="true" className="size-4" />
            {messages.journalNumber.textIt(journalNumber.display)}
          </a>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => saveJournalNumberContact(journalNumber.e164)}>
          <ContactRound aria-hidden="true" className="size-4" />
          {messages.journalNumber.saveContact}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/settings">
            <Settings aria-hidden="true" className="size-4" />
            Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem disabled={!onExport} onSelect={() => onExport?.()}>
          <Download aria-hidden="true" className="size-4" />
          Export
        </DropdownMenuItem>
        {vault === 'unlocked' && (
          <DropdownMenuItem onSelect={lockVault}>
            <Lock aria-hidden="true" className="size-4" />
            {vaultMessages.journal.lock}
          </DropdownMenuItem>
        )}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOut()} className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800">
          <LogOut aria-hidden="true" className="size-4" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
