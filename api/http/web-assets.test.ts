import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import express from 'express';
import supertest from 'supertest';
import { webAssets } from './web-assets';

describe('the built web client’s files', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'lively-web-assets-'));
  const script = 'console.log("a hashed chunk");'.repeat(50);
  mkdirSync(path.join(root, 'assets'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Lively</title>');
  writeFileSync(path.join(root, 'theme-init.js'), 'void 0;');
  writeFileSync(path.join(root, 'assets', 'app-123.js'), script);
  writeFileSync(path.join(root, 'assets', 'app-123.js.gz'), gzipSync(script));
  writeFileSync(path.join(root, 'assets', 'plain-456.js'), 'void 1;');
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

  it('sends the file itself without a copy or to a browser that accepts no compression', async () => {
    const identity = await web.get('/assets/app-123.js').set('Accept-Encoding', 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.text).toBe(script);
    const plain = await web.get('/assets/plain-456.js').set('Accept-Encoding', 'br, gzip');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps an hour for files without a hash in their name', async () => {
    const res = await web.get('/theme-init.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });
});
