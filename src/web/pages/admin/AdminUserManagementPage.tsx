import { Search, ShieldAlert, Trash2, UserRound } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import type { AdminUserInfo, DeletionSummary } from '../../../shared/admin';
import { messages } from '../../../shared/messages';
import { ApiError } from '../../api/errors';
import { Button } from '../../components/ui/Button';
import { Input } from '../../components/ui/Input';
import { useReturnFocus } from '../../components/ui/return-focus';
import { AdminShell, Panel } from '../../features/admin/AdminShell';
import { countOf, formatDate, maskPhone } from '../../features/admin/format';
import { useDeleteUser, useFindUser } from '../../features/admin/queries';
import { PageHead } from '../../seo/PageHead';

const text = messages.admin;
/** One toast for the outcome of a search: a new outcome replaces it, a found user dismisses it. */
const SEARCH_TOAST_ID = 'admin-user-search';

/** /admin/user-management */
export function AdminUserManagementPage() {
  const [q, setQ] = useState('');
  const [user, setUser] = useState<AdminUserInfo | null>(null);
  const [summary, setSummary] = useState<DeletionSummary | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const find = useFindUser();
  const remove = useDeleteUser();

  async function onSearch(event: FormEvent) {
    event.preventDefault();
    const term = q.trim();
    if (!term) return;
    try {
      setUser(await find.mutateAsync(term));
      // The last search's "User not found" must not stand beside the user this one found.
      toast.dismiss(SEARCH_TOAST_ID);
    } catch (error) {
      setUser(null);
      if (error instanceof ApiError && error.status === 404) toast.error(text.userNotFoundTitle, { id: SEARCH_TOAST_ID, description: text.userNotFound });
      else toast.error(text.searchFailed, { id: SEARCH_TOAST_ID, description: error instanceof Error ? error.message : undefined });
    }
  }

  async function onDelete() {
    if (!user) return;
    try {
      const result = await remove.mutateAsync(user.id);
      setSummary(result);
      setUser(null);
      setConfirmOpen(false);
      toast.success(text.userDeleted);
    } catch (error) {
      toast.error(text.deletionFailed, { description: (error instanceof Error && error.message) || text.deletionFailedFallback });
    }
  }

  return (
    <AdminShell title="User Management" subtitle="Look up an account and delete it with all of its data" back>
      <PageHead title="User management · Admin · Jotline" robots="noindex" />
      <Panel>
        <form onSubmit={onSearch} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="user-search" className="block text-sm font-medium text-stone-700">
              User ID, email or phone number
            </label>
            <Input
              id="user-search"
              className="mt-1.5"
              placeholder="e.g. 3f2c…, ada@example.com or +12025550123"
              value={q}
              onChange={(event) => setQ(event.target.value)}
              autoComplete="off"
            />
          </div>
          <Button type="submit" loading={find.isPending} disabled={!q.trim()}>
            {!find.isPending && <Search aria-hidden="true" className="size-4" />}
            Search
          </Button>
        </form>
      </Panel>

      {user && (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          <Panel aria-labelledby="user-info-heading">
            <h2 id="user-info-heading" className="flex items-center gap-2 text-base font-semibold text-ink">
              <UserRound aria-hidden="true" className="size-4 text-brand-700" />
              User Information
            </h2>
            <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
              <dt className="text-stone-500">Email</dt>
              <dd className="break-all text-ink">{user.email}</dd>
              <dt className="text-stone-500">User ID</dt>
              <dd className="font-mono text-xs break-all text-ink">{user.id}</dd>
              <dt className="text-stone-500">Phone</dt>
              <dd className="font-mono text-ink">{user.phone_last_four ? maskPhone(user.phone_last_four) : 'None'}</dd>
              <dt className="text-stone-500">Phone verified</dt>
              <dd className="text-ink">{user.phone_verified ? 'Yes' : 'No'}</dd>
              <dt className="text-stone-500">Joined</dt>
              <dd className="text-ink">{formatDate(user.created_at)}</dd>
              <dt className="text-stone-500">Admin</dt>
              <dd className="text-ink">{user.is_admin ? 'Yes' : 'No'}</dd>
              <dt className="text-stone-500">Subscription</dt>
              <dd className="text-ink">{subscriptionText(user.subscription)}</dd>
            </dl>
          </Panel>
          <section aria-labelledby="delete-heading" className="rounded-xl border border-red-200 bg-red-50 p-4 sm:p-5">
            <h2 id="delete-heading" className="flex items-center gap-2 text-base font-semibold text-red-800">
              <ShieldAlert aria-hidden="true" className="size-4" />
              Delete User
            </h2>
            <p className="mt-1 text-sm text-red-800">This permanently deletes the account and cannot be undone. It removes:</p>
            <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm text-red-900">
              <li>The account and its profile</li>
              <li>{countOf(user.counts.journalEntries, 'journal entry', 'journal entries')}</li>
              <li>{countOf(user.counts.journalPhotos, 'photo', 'photos')} and their files</li>
              <li>{countOf(user.counts.smsMessages, 'SMS message', 'SMS messages')}</li>
              <li>Subscription records (a live subscription is cancelled with the payment provider first)</li>
            </ul>
            <Button variant="danger" className="mt-4" onClick={() => setConfirmOpen(true)}>
              <Trash2 aria-hidden="true" className="size-4" />
              Delete User
            </Button>
          </section>
        </div>
      )}

      {summary && (
        <Panel aria-labelledby="summary-heading">
          <h2 id="summary-heading" className="text-base font-semibold text-ink">
            Last Deletion Summary
          </h2>
          <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
            <SummaryItem label="User" value={summary.userEmail} />
            <SummaryItem label="Journal entries" value={summary.deletedRecords.journalEntries} />
            <SummaryItem label="Photos" value={summary.deletedRecords.journalPhotos} />
            <SummaryItem label="SMS messages" value={summary.deletedRecords.smsMessages} />
          </dl>
          <p className="mt-3 text-sm text-stone-600">
            {summary.subscriptionCanceled ? messages.accountDeletion.summaryCanceled : messages.accountDeletion.summaryNoSubscription}
          </p>
          <p className="mt-1 text-sm text-stone-600">
            {summary.filesDeleted.length} {summary.filesDeleted.length === 1 ? 'file' : 'files'} deleted from storage
          </p>
          {summary.filesDeleted.length > 0 && (
            <ul className="mt-1 max-h-40 overflow-y-auto rounded-lg bg-stone-50 p-2 font-mono text-xs text-stone-600">
              {summary.filesDeleted.map((file) => (
                <li key={file} className="break-all">
                  {file}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      )}

      {user && <ConfirmDeleteDialog open={confirmOpen} onOpenChange={setConfirmOpen} email={user.email} deleting={remove.isPending} onConfirm={onDelete} />}
    </AdminShell>
  );
}

function SummaryItem({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-lg bg-stone-50 p-2.5">
      <dt className="text-xs text-stone-500">{label}</dt>
      <dd className="mt-0.5 truncate text-sm font-medium text-ink tabular-nums">{value}</dd>
    </div>
  );
}

function subscriptionText(subscription: AdminUserInfo['subscription']): string {
  if (!subscription) return 'None';
  if (subscription.is_trial) return `Trial${subscription.trial_end ? ` until ${formatDate(subscription.trial_end)}` : ''}`;
  if (subscription.subscribed) {
    const tier = subscription.subscription_tier ? `${subscription.subscription_tier} ` : '';
    return `${tier}subscriber${subscription.subscription_end ? ` until ${formatDate(subscription.subscription_end)}` : ''}`.replace(/^./, (c) => c.toUpperCase());
  }
  return 'Not subscribed';
}

/** Asks for the typed word DELETE; the button works only on exactly that. */
function ConfirmDeleteDialog(props: { open: boolean; onOpenChange: (open: boolean) => void; email: string; deleting: boolean; onConfirm: () => void }) {
  const [typed, setTyped] = useState('');
  const matches = typed === text.deleteConfirmText;
  const returnFocus = useReturnFocus(props.open);
  return (
    <Dialog.Root
      open={props.open}
      onOpenChange={(open) => {
        if (!open) setTyped('');
        props.onOpenChange(open);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-ink/40" />
        <Dialog.Content
          {...returnFocus}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-stone-200 bg-white p-5 shadow-2xl focus:outline-none"
        >
          <Dialog.Title className="text-lg font-semibold text-ink">Delete this user?</Dialog.Title>
          <Dialog.Description className="mt-1 text-sm text-stone-600">
            {props.email} and all of their data will be deleted permanently. Type <strong className="font-mono">DELETE</strong> to confirm.
          </Dialog.Description>
          <form
            className="mt-4 space-y-4"
            onSubmit={(event) => {
              event.preventDefault();
              if (matches) props.onConfirm();
            }}
          >
            <label htmlFor="delete-confirm" className="sr-only">
              Type DELETE to confirm
            </label>
            <Input id="delete-confirm" value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" placeholder="DELETE" className="font-mono" />
            <div className="flex justify-end gap-2">
              <Dialog.Close asChild>
                <Button variant="secondary">Cancel</Button>
              </Dialog.Close>
              <Button type="submit" variant="danger" disabled={!matches} loading={props.deleting}>
                Delete permanently
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
