/**
 * The journal experience of /journal. The page renders the header and then:
 *
 *   const [exportOpen, setExportOpen] = useState(false);
 *   <JournalHeader onExport={() => setExportOpen(true)} />
 *   <main …><JournalWorkspace exportOpen={exportOpen} onExportOpenChange={setExportOpen} /></main>
 *
 * ExportModal ({open, onOpenChange}) is exported too, for a page that wants the export alone.
 */
export { JournalWorkspace, type JournalWorkspaceProps } from './JournalWorkspace';
export { ExportModal } from './dialogs';
export { journalKeys, useEntries, useProfile, useStats, useSubscription } from './queries';
export { CHECKOUT_SESSION_STORAGE_KEY } from './useCheckoutReturn';
