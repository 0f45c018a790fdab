import { useEffect, useReducer, useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { preloadOnFirstInteraction } from '../../components/ui/lazy-dialog';
import { loadOnce } from '../../components/ui/load-once';
import { useAuth } from '../../features/auth/auth-context';
import { toastFailure } from '../../features/journal/feedback';
import { journalCopy } from '../../features/journal/copy';
import type { AccountMenuContentProps } from './AccountMenuContent';
import { ACCOUNT_MENU_LABEL, ACCOUNT_MENU_TRIGGER_CLASSES, AccountMenuFace } from './account-menu-trigger';

type MenuComponent = (props: AccountMenuContentProps) => ReactNode;

/** The menu itself: Radix's dropdown, its positioning and its focus handling (about 26 KB compressed). */
const menuCode = loadOnce<MenuComponent>(() => import('./AccountMenuContent').then((module) => module.AccountMenuContent));

/** Fetches the menu's code ahead of need; a header rendered afterwards shows the full menu at once. */
export const loadAccountMenu = (): Promise<void> => menuCode.load().then(() => undefined);

/** Keys that open Radix's dropdown from its button. */
const OPENING_KEYS = new Set(['Enter', ' ', 'ArrowDown']);

/**
 * The account menu of the journal header. Its button is on the first screen at once; the menu's code
 * follows when the reader starts using the page (or presses the button), and the menu then takes
 * over the button, opening straight away if it was pressed meanwhile and keeping focus where it was.
 */
export function AccountMenu({ onExport }: { onExport?: () => void }) {
  const { user } = useAuth();
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [openOnLoad, setOpenOnLoad] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const hadFocus = useRef(false);

  useEffect(() => {
    if (menuCode.loaded()) return;
    let current = true;
    const swap = () => {
      if (!current) return;
      hadFocus.current = document.activeElement === button.current;
      rerender();
    };
    const stop = preloadOnFirstInteraction([{ preload: () => menuCode.load().then(swap) }]);
    return () => {
      current = false;
      stop();
    };
  }, []);

  const Menu = menuCode.loaded();
  if (Menu) return <Menu onExport={onExport} defaultOpen={openOnLoad} focusTrigger={hadFocus.current} />;

  const open = () => {
    // A press is a pointerdown and then a click: one download, one failure toast.
    if (openOnLoad) return;
    setOpenOnLoad(true);
    menuCode.load().then(rerender, (error: unknown) => {
      setOpenOnLoad(false);
      toastFailure(error, journalCopy.loadError);
    });
  };
  return (
    <button
      ref={button}
      type="button"
      aria-label={ACCOUNT_MENU_LABEL}
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      className={ACCOUNT_MENU_TRIGGER_CLASSES}
      onPointerDown={(event: PointerEvent) => event.button === 0 && !event.ctrlKey && open()}
      onKeyDown={(event: KeyboardEvent) => {
        if (!OPENING_KEYS.has(event.key)) return;
        event.preventDefault();
        open();
      }}
      onClick={open}
    >
      <AccountMenuFace email={user?.email} />
    </button>
  );
}
