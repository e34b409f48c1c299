import '@/test-support/jsdom-setup';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { installFakeFetch, type FakeAnswer } from '@/test-support/fake-fetch';
import { renderWithApp } from '@/test-support/render';
import { refusalMessage, useMediaUpload } from '@/lib/use-media-upload';
import { MediaUploader } from './media-uploader';

jest.setTimeout(30_000);
afterEach(cleanup);

/** XMLHttpRequest as the multipart upload uses it; each request waits for the test to answer. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  status = 0;
  responseText = '';
  url = '';
  body: FormData | null = null;
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  withCredentials = false;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  abort() {}
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ loaded, total, lengthComputable: true }));
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
}

beforeEach(() => {
  FakeXhr.sent = [];
  Object.assign(globalThis, { XMLHttpRequest: FakeXhr });
  Object.assign(URL, { createObjectURL: () => 'blob:local', revokeObjectURL: () => undefined });
});

function Harness() {
  const upload = useMediaUpload({ pollMs: 5 });
  return (
    <>
      <MediaUploader upload={upload} />
      <output data-testid="ids">{upload.mediaIds.join(',')}</output>
      <output data-testid="all-ready">{String(upload.allReady)}</output>
    </>
  );
}

const photo = (name: string) => new File(['jpeg bytes'], name, { type: 'image/jpeg' });

function pick(...files: File[]) {
  fireEvent.change(screen.getByTestId('media-file-input'), { target: { files } });
}

const rowOf = (name: string) => screen.getByRole('listitem', { name: new RegExp(`^${name.replace('.', '\\.')}`) });
const order = () => screen.getAllByTestId('upload-entry').map((row) => row.getAttribute('aria-label')?.split(' (')[0]);

/** GET /api/media/:id answers from a script per item: each call takes the next answer, the last repeats. */
function serveMedia(script: Record<string, FakeAnswer[]>) {
  return installFakeFetch((call) => {
    const id = /\/api\/media\/([^/?]+)$/.exec(call.url)?.[1];
    const answers = id ? script[id] : undefined;
    if (!answers) return { status: 404, body: { error: 'Media not found' } };
    return answers.length > 1 ? answers.shift()! : answers[0]!;
  });
}

const item = (id: string, status: string, extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { id, kind: 'image', status, width: 10, height: 10, bytes: 10, createdAt: '2026-01-01T00:00:00Z', ...extra },
});

describe('MediaUploader', () => {
  it('shows upload progress, then the server processing progress, then ready with the id', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls = installFakeFetch(async (call) => {
      if (call.url !== '/api/media/m1') return { status: 404 };
      // The first answer says processing at 30%; the next (after the test saw it) ready.
      if (calls.filter((c) => c.url === call.url).length === 1) return item('m1', 'processing', { progress: 30 });
      await held;
      return item('m1', 'ready', { thumbnailUrl: '/api/media/m1/files/w320.webp?exp=1&sig=s' });
    });
    renderWithApp(<Harness />);
    pick(photo('beach.jpg'));

    const xhr = FakeXhr.sent[0]!;
    expect(xhr.url).toBe('/api/media');
    expect((xhr.body!.get('file') as File).name).toBe('beach.jpg');
    xhr.progress(45, 100);
    expect(within(rowOf('beach.jpg')).getByText('Uploading 45%')).toBeTruthy();
    expect(screen.getByTestId('all-ready').textContent).toBe('false');

    xhr.answer(201, { id: 'm1', kind: 'image', status: 'processing' });
    expect(await screen.findByText('Processing… 30%')).toBeTruthy();
    expect(screen.getByTestId('all-ready').textContent).toBe('false');
    release();
    expect(await screen.findByText('Ready')).toBeTruthy();
    expect(screen.getByTestId('ids').textContent).toBe('m1');
    expect(screen.getByTestId('all-ready').textContent).toBe('true');
  });

  it("shows the server's refusal per file and a failed processing reason", async () => {
    serveMedia({ v1: [item('v1', 'failed', { kind: 'video', failureReason: 'The video could not be decoded' })] });
    renderWithApp(<Harness />);
    pick(photo('notes.jpg'), photo('huge.jpg'), photo('clip.jpg'));
    const [text, huge, clip] = FakeXhr.sent;
    text!.answer(415, { error: 'Unsupported file type', code: 'UNSUPPORTED_MEDIA' });
    huge!.answer(413, { error: 'Images can be at most 50 MB', code: 'TOO_LARGE' });
    clip!.answer(201, { id: 'v1', kind: 'video', status: 'processing' });

    expect((await within(rowOf('notes.jpg')).findByRole('alert')).textContent).toBe('Unsupported file type');
    expect((await within(rowOf('huge.jpg')).findByRole('alert')).textContent).toBe('Images can be at most 50 MB');
    await waitFor(() =>
      expect(within(rowOf('clip.jpg')).getByRole('alert').textContent).toBe('The video could not be decoded'),
    );
    expect(screen.getByTestId('all-ready').textContent).toBe('false');
    expect(screen.getByTestId('ids').textContent).toBe('');
  });

  it('reorders with the up and down buttons and removes a file; the ids follow the order shown', async () => {
    serveMedia({ a: [item('a', 'ready')], b: [item('b', 'ready')], c: [item('c', 'ready')] });
    renderWithApp(<Harness />);
    pick(photo('a.jpg'), photo('b.jpg'), photo('c.jpg'));
    FakeXhr.sent.forEach((xhr, index) => xhr.answer(201, { id: 'abc'[index], kind: 'image', status: 'processing' }));
    await waitFor(() => expect(screen.getByTestId('ids').textContent).toBe('a,b,c'));

    expect((screen.getByRole('button', { name: 'Move a.jpg up' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Move c.jpg down' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Move c.jpg up' }));
    expect(order()).toEqual(['a.jpg', 'c.jpg', 'b.jpg']);
    fireEvent.click(screen.getByRole('button', { name: 'Move a.jpg down' }));
    expect(order()).toEqual(['c.jpg', 'a.jpg', 'b.jpg']);
    expect(screen.getByTestId('ids').textContent).toBe('c,a,b');

    fireEvent.click(screen.getByRole('button', { name: 'Remove a.jpg' }));
    expect(order()).toEqual(['c.jpg', 'b.jpg']);
    expect(screen.getByTestId('ids').textContent).toBe('c,b');
  });

  it('takes dropped files like picked ones', () => {
    installFakeFetch(() => ({ status: 404 }));
    renderWithApp(<Harness />);
    fireEvent.drop(screen.getByTestId('media-drop-zone'), { dataTransfer: { files: [photo('dropped.jpg')] } });
    expect(rowOf('dropped.jpg')).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(1);
  });
});

describe('refusalMessage', () => {
  it("prefers the server's words, then names the status", () => {
    expect(refusalMessage(413, JSON.stringify({ error: 'Videos can be at most 2 GB' }))).toBe(
      'Videos can be at most 2 GB',
    );
    expect(refusalMessage(415, '<html>proxy</html>')).toBe('Unsupported file type');
    expect(refusalMessage(413, '')).toBe('File too large');
    expect(refusalMessage(502, '')).toBe('Upload failed (502)');
  });
});
