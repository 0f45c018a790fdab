import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ADMIN_PAGE_SIZE } from '../../../shared/admin';
import { messages } from '../../../shared/messages';
import { PageHead } from '../../seo/PageHead';
import { AdminShell, InlineError } from './AdminShell';
import { LastFourSearch, ListActions, tdClasses, thClasses } from './ListToolbar';
import { Pager } from './Pager';

/** Page and search of a list; a new search goes back to page 1. Spread it into AdminListPage. */
export function usePagedSearch() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  return {
    page,
    search,
    onPage: setPage,
    onSearch: (value: string) => {
      setSearch(value);
      setPage(1);
    },
  };
}

/** What the list needs of its query (a TanStack Query result fits). */
export interface ListQuery {
  isPending: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: (options: { throwOnError: boolean }) => Promise<unknown>;
}

export interface ListColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Extra classes of the cells (e.g. font-mono). */
  className?: string;
}

interface AdminListPageProps<Row extends { id: string }> {
  title: string;
  /** The document title. */
  headTitle: string;
  /** Accessible name of the list section. */
  label: string;
  query: ListQuery;
  /** Undefined until loaded. */
  rows: Row[] | undefined;
  total: number | undefined;
  page: number;
  onPage: (page: number) => void;
  search: string;
  onSearch: (search: string) => void;
  csvPath: string;
  csvName: string;
  /** The stat cards above the list. */
  stats: ReactNode;
  /** More controls beside the search. */
  filters?: ReactNode;
  columns: ListColumn<Row>[];
  emptyText: string;
  loadFailed: string;
  fetchFailed: string;
  /** Id of the fetch-failed toast, so it shows once. */
  toastId: string;
}

/** A paged admin list: Refresh and Export CSV, stat cards, last-four search, table, empty state and pager. */
export function AdminListPage<Row extends { id: string }>(props: AdminListPageProps<Row>) {
  const { query } = props;
  const rows = props.rows ?? [];

  useEffect(() => {
    if (query.isError) toast.error(messages.admin.errorTitle, { description: props.fetchFailed, id: props.toastId });
  }, [query.isError, props.fetchFailed, props.toastId]);

  return (
    <AdminShell
      title={props.title}
      back
      actions={
        <ListActions
          onRefresh={() => query.refetch({ throwOnError: true })}
          refreshing={query.isFetching && !query.isPending}
          csvPath={props.csvPath}
          csvName={props.csvName}
          canExport={rows.length > 0}
        />
      }
    >
      <PageHead title={props.headTitle} robots="noindex" />
      {props.stats}

      {query.isError && <InlineError>{props.loadFailed}</InlineError>}

      <section className="overflow-hidden rounded-xl border border-stone-200 bg-white shadow-xs" aria-label={props.label}>
        <div className="flex flex-col gap-3 border-b border-stone-200 p-3 sm:flex-row sm:items-center sm:justify-between">
          <LastFourSearch value={props.search} onChange={props.onSearch} />
          {props.filters}
        </div>
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-stone-100">
            <thead className="bg-stone-50">
              <tr>
                {props.columns.map((column) => (
                  <th key={column.header} scope="col" className={thClasses}>
                    {column.header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((row) => (
                <tr key={row.id} className="hover:bg-stone-50">
                  {props.columns.map((column) => (
                    <td key={column.header} className={column.className ? `${tdClasses} ${column.className}` : tdClasses}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
              {!query.isPending && rows.length === 0 && <MessageRow colSpan={props.columns.length}>{props.emptyText}</MessageRow>}
              {query.isPending && <MessageRow colSpan={props.columns.length}>Loading…</MessageRow>}
            </tbody>
          </table>
        </div>
        <Pager page={props.page} pageSize={ADMIN_PAGE_SIZE} total={props.total ?? 0} onPage={props.onPage} />
      </section>
    </AdminShell>
  );
}

function MessageRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-sm text-stone-500">
        {children}
      </td>
    </tr>
  );
}
