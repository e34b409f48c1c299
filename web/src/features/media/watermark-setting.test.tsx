import '@/test-support/jsdom-setup';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { installFakeFetch, type FakeAnswer, type FakeCall } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { WatermarkSetting } from './watermark-setting';

jest.setTimeout(30_000);
afterEach(cleanup);

/** The server's setting, changed by PUT as the API does (or refused with `refusal`). */
function serve(initially: boolean, refusal?: FakeAnswer) {
  let enabled = initially;
  return installFakeFetch((call: FakeCall) => {
    if (call.url !== '/api/creators/me/watermark') return { status: 404, body: { error: 'not found' } };
    if (call.method === 'PUT') {
      if (refusal) return refusal;
      enabled = (call.body as { enabled: boolean }).enabled;
    }
    return { status: 200, body: { enabled } };
  });
}

const toggle = () => screen.findByRole<HTMLInputElement>('switch', { name: 'Watermark my photos' });

describe('WatermarkSetting', () => {
  it('shows the setting with what it does, and turns it on and off', async () => {
    const calls = serve(false);
    renderWithApp(<WatermarkSetting />);
    expect((await toggle()).checked).toBe(false);
    expect(screen.getByText(/short code that identifies the viewer/)).toBeTruthy();

    fireEvent.click(await toggle());
    await waitFor(async () => expect((await toggle()).checked).toBe(true));
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([{ enabled: true }]);
    expect(await screen.findByText('Watermark on')).toBeTruthy();

    fireEvent.click(await toggle());
    await waitFor(async () => expect((await toggle()).checked).toBe(false));
    expect(calls.filter((call) => call.method === 'PUT').map((call) => call.body)).toEqual([
      { enabled: true },
      { enabled: false },
    ]);
  });

  it('keeps the setting and says why when the server refuses', async () => {
    serve(true, { status: 403, body: { error: 'Creator access required', code: 'CREATOR_REQUIRED' } });
    renderWithApp(<WatermarkSetting />);
    expect((await toggle()).checked).toBe(true);
    fireEvent.click(await toggle());
    expect(await screen.findByText('Could not change the watermark')).toBeTruthy();
    expect(screen.getByText('Creator access required')).toBeTruthy();
    expect((await toggle()).checked).toBe(true);
  });
});
