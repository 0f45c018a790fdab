import { buildApp } from './app';
import type { Config } from './config';

/** Builds the app and listens; stops cleanly on SIGINT/SIGTERM. */
export async function serve(config: Config): Promise<void> {
  const app = await buildApp(config);
  const close = async () => {
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', close);
  process.once('SIGTERM', close);
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Jotline is up at ${config.publicUrl}`);
}
