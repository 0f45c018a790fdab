import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3999);
const transcriberPort = port - 1;
const dataDir = process.env.E2E_DATA_DIR ?? `/tmp/jotline-e2e-${port}`;

// Journeys in Debian's Chromium against `npm start` on the simulators. Never downloads a browser.
export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    // localhost, not an IP address: WebAuthn takes a domain as relying party id (passkey journeys).
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 900 } } },
    // A phone-sized window for the journeys a newcomer takes first.
    { name: 'phone', testMatch: /(landing|accounts)\.spec\.ts/, use: { ...devices['Desktop Chrome'], viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  ],
  webServer: [
    // A transcription service speaking the OpenAI-compatible API (e2e/fake-transcriber.mjs).
    { command: `node e2e/fake-transcriber.mjs ${transcriberPort}`, url: `http://127.0.0.1:${transcriberPort}/healthz`, reuseExistingServer: false },
    {
      command: `rm -rf ${dataDir} && npm start --silent`,
      url: `http://127.0.0.1:${port}/healthz`,
      timeout: 240_000,
      reuseExistingServer: false,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://localhost:${port}`,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        TRANSCRIBE_URL: `http://127.0.0.1:${transcriberPort}/v1`,
      },
    },
  ],
});
