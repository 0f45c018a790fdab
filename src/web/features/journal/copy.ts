/**
 * The journal screen's words from the spec (sections 2, 4, 8) that src/shared/messages.ts does not
 * hold yet because only the web app says them. Keep them word for word.
 */
export const journalCopy = {
  loading: 'Loading your journal...',
  loadErrorTitle: 'Error loading journal entries',
  loadError: 'Please check your connection and try again',
  retry: 'Try again',
  createFirst: 'Create Your First Entry',
  noMatchesTitle: 'No entries match your search',
  noMatches: 'Try adjusting your search terms or filters',
  loadMore: 'Load more',
  newEntry: 'New entry',

  createdTitle: 'Entry created',
  created: 'Your journal entry has been saved successfully.',
  updatedTitle: 'Entry updated',
  deletedTitle: 'Entry deleted',
  deleted: 'Your journal entry has been deleted successfully.',
  errorTitle: 'Error',
  createFailed: 'Failed to create journal entry. Please try again.',
  updateFailed: 'Failed to update journal entry. Please try again.',
  deleteFailed: 'Failed to delete journal entry. Please try again.',
  saveFailed: 'Failed to save entry. Please try again.',
  saving: 'Saving...',
  deleting: 'Deleting...',
  showMore: 'Show more',
  showLess: 'Show less',

  trialActive: 'Free Trial Active',
  trialExpired: 'Trial Expired',
  upgradeNow: 'Upgrade Now',
  optedOutTitle: 'Text messages are paused',
  optedOut: 'You opted out of text messages, so we will not send reminders or prompts. Text START to your journal number to re-subscribe.',

  checkoutSuccessTitle: 'Subscription activated!',
  checkoutSuccess: 'Welcome to the product! Your subscription is now active.',
  checkoutCanceledTitle: 'Checkout canceled',
  checkoutCanceled: 'No changes were made to your subscription.',

  exporting: 'Exporting...',
  exportFailed: 'Export failed. Please try again.',
} as const;

/** 'n days remaining' with the right plural. */
export function daysRemaining(days: number): string {
  return `${days} ${days === 1 ? 'day' : 'days'} remaining`;
}
