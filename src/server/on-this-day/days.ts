// The rules are shared with the browser, which finds a Vault journal's On This Day itself.
export { isLeapYear, isOnThisDay, matchingMonthDays, yearsAgo } from '../../shared/on-this-day';
