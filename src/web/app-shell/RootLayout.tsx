import { useSyncExternalStore } from 'react';
import { Outlet } from 'react-router';
import { loadedAppProviders, subscribeAppProviders } from './app-providers';
import { NewVersionPrompt } from './NewVersionPrompt';

const noProviders = () => null;

/**
 * Every page's frame. The public pages (landing, privacy, legal, 404) render bare, so they hydrate
 * without the app's providers; once an app page has loaded them they stay mounted on every page, so
 * a toast such as "Signed out" survives the move home.
 */
export function RootLayout() {
  const Providers = useSyncExternalStore(subscribeAppProviders, loadedAppProviders, noProviders);
  if (!Providers) {
    return (
      <>
        <Outlet />
        <NewVersionPrompt />
      </>
    );
  }
  return (
    <Providers>
      <Outlet />
      <NewVersionPrompt />
    </Providers>
  );
}
