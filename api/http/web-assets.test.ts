import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import express from 'express';
import supertest from 'supertest';
import { webAssets, webPage } from './web-assets';

describe('the built web client’s files', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'lively-web-assets-'));
  const script = 'console.log("a hashed chunk");'.repeat(50);
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Lively</title>');
  writeFileSync(path.join(root, 'app-boot.js'), 'void 0;');
  writeFileSync(path.join(root, 'assets', 'app-123.js'), script);
  writeFileSync(path.join(root, 'assets', 'app-123.js.gz'), gzipSync(script));
  writeFileSync(path.join(root, 'assets', 'plain-456.js'), 'void 1;');
  const shared = 'shared~login-page~home-page-789.js';
  writeFileSync(path.join(root, 'assets', shared), script);
  writeFileSync(path.join(root, 'assets', `${shared}.gz`), gzipSync(script));
  writeFileSync(path.join(root, 'assets', `${shared}.br`), brotliCompressSync(script));
  const web = supertest(express().use(webAssets(root)));

  it('sends the gzip copy of a hashed script to a browser that accepts it, cached for a year as immutable', async () => {
    const res = await web.get('/assets/app-123.js').set('Accept-Encoding', 'gzip, deflate');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(res.text).toBe(script); // as the client decodes it
  });

  it("sends the brotli copy when the browser accepts it, whatever the header's order, to chunks shared by pages too", async () => {
    const res = await web.get(`/assets/${shared}`).set('Accept-Encoding', 'gzip, deflate, br, zstd');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.text).toBe(script); // as the client decodes it
    const gzip = await web.get(`/assets/${shared}`).set('Accept-Encoding', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.text).toBe(script);
  });

  it('sends the file itself without a copy or to a browser that accepts no compression', async () => {
    const identity = await web.get('/assets/app-123.js').set('Accept-Encoding', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.text).toBe(script);
    const plain = await web.get('/assets/plain-456.js').set('Accept-Encoding', 'br, gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps an hour for files without a hash in their name', async () => {
    const res = await web.get('/app-boot.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('the page for a client-side route', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'lively-web-pages-'));
  mkdirSync(path.join(root, 'pages'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><div id="root"></div>');
  const landing = '<!doctype html><div id="root" data-prerendered><h1>Where creators and fans</h1></div>';
  writeFileSync(path.join(root, 'pages', 'index.html'), landing);
  writeFileSync(path.join(root, 'pages', 'index.html.gz'), gzipSync(landing));
  writeFileSync(
    path.join(root, 'pages', 'login.html'),
    '<!doctype html><div id="root" data-prerendered>Welcome Back</div>',
  );
  const web = supertest(express().get(/.*/, webPage(root)));

  it('is the pre-rendered page for a visitor without a session cookie, compressed when accepted', async () => {
    const res = await web.get('/').set('Accept-Encoding', 'gzip').set('Cookie', 'theme=dark');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/Cookie/);
    expect(res.text).toBe(landing);
    expect((await web.get('/login').set('Accept-Encoding', 'identity')).text).toContain('Welcome Back');
  });

  it('is the app for a request with a session cookie, and for a route nothing was pre-rendered for', async () => {
    const signedIn = await web.get('/').set('Cookie', 'theme=dark; lively.sid=abc');
    expect(signedIn.text).toBe('<!doctype html><div id="root"></div>');
    expect(signedIn.headers.vary).toMatch(/Cookie/);
    expect((await web.get('/home')).text).toBe('<!doctype html><div id="root"></div>');
    expect((await web.get('/../index.html')).text).toBe('<!doctype html><div id="root"></div>');
  });
});
