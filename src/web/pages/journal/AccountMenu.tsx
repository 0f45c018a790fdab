import { ChevronDown, ContactRound, Download, LogOut, MessageSquareText, Settings, UserRound } from 'lucide-react';
import { Link } from 'react-router';
import { messages } from '../../../shared/messages';
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
import { saveJournalNumberContact, useJournalNumber } from '../../features/journal-number';

/** The account dropdown of the journal header: the journal number, Settings, Export, Sign Out (spec 2). */
export function AccountMenu({ onExport }: { onExport?: () => void }) {
  const { user } = useAuth();
  const signOut = useSignOut();
  const journalNumber = useJournalNumber();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label="Account menu"
        className="inline-flex h-10 items-center gap-2 rounded-full border border-stone-300 bg-white pr-3 pl-1 text-sm font-medium text-ink shadow-sm hover:bg-stone-50 data-[state=open]:bg-stone-50"
      >
        <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-brand-100 text-brand-800">
          <UserRound className="size-4" />
        </span>
        <span className="hidden max-w-48 truncate sm:inline">{user?.email}</span>
        <ChevronDown aria-hidden="true" className="size-4 text-stone-500" />
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
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOut()} className="text-red-700 data-[highlighted]:bg-red-50 data-[highlighted]:text-red-800">
          <LogOut aria-hidden="true" className="size-4" />
          Sign Out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
