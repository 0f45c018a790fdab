import { ChevronDown, UserRound } from 'lucide-react';

/** The account menu's button, the same before and after the menu's code has loaded. */
export const ACCOUNT_MENU_TRIGGER_CLASSES =
  'inline-flex h-10 items-center gap-2 rounded-full border border-stone-300 bg-white pr-3 pl-1 text-sm font-medium text-ink shadow-sm hover:bg-stone-50 data-[state=open]:bg-stone-50';

export const ACCOUNT_MENU_LABEL = 'Account menu';

/** What the button shows: an avatar, the address from the small breakpoint up, and a chevron. */
export function AccountMenuFace({ email }: { email: string | undefined }) {
  return (
    <>
      <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-brand-100 text-brand-800">
        <UserRound className="size-4" />
      </span>
      <span className="hidden max-w-48 truncate sm:inline">{email}</span>
      <ChevronDown aria-hidden="true" className="size-4 text-stone-500" />
    </>
  );
}
