import { describe, expect, it } from 'vitest';
import { tempDirForTest } from '../../../tests/support/temp-dir';
import { ConfigError, loadConfig } from '../config.server';

// The picture bucket is off by default (pictures in DATA_DIR/uploads) and all-or-nothing: half a
// configuration or a malformed value stops start-up with a message naming the variable.

const load = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: tempDirForTest('quarry-bucket-config-'), ...env } as unknown as NodeJS.ProcessEnv);

const keys = {
  S3_BUCKET: 'quarry-pictures',
  S3_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  S3_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};

describe('picture bucket configuration', () => {
  it('is off when nothing is set', () => {
    expect(load({}).pictureBucket).toBeNull();
  });

  it('defaults to AWS in us-east-1 under avatars/', () => {
    expect(load(keys).pictureBucket).toEqual({
      endpoint: 'https://s3.us-east-1.amazonaws.com',
      bucket: 'quarry-pictures',
      region: 'us-east-1',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      prefix: 'avatars/',
    });
    expect(load({ ...keys, S3_REGION: 'eu-west-3' }).pictureBucket?.endpoint).toBe('https://s3.eu-west-3.amazonaws.com');
  });

  it('takes any S3-compatible endpoint, region and prefix', () => {
    const c = load({ ...keys, S3_ENDPOINT: 'http://minio.internal:9000/', S3_REGION: 'auto', S3_PREFIX: 'quarry/avatars/' }).pictureBucket;
    expect(c).toMatchObject({ endpoint: 'http://minio.internal:9000', region: 'auto', prefix: 'quarry/avatars/' });
    expect(load({ ...keys, S3_PREFIX: '' }).pictureBucket?.prefix).toBe('');
  });

  it('refuses half a configuration, naming what is missing', () => {
    expect(() => load({ S3_BUCKET: 'quarry-pictures' })).toThrow(/half configured: set S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY too/);
    expect(() => load({ S3_ENDPOINT: 'http://minio:9000' })).toThrow(/S3_ENDPOINT is set but S3_BUCKET is not/);
  });

  it('refuses malformed values', () => {
    for (const [name, value, message] of [
      ['S3_BUCKET', 'Quarry_Pictures', /S3_BUCKET "Quarry_Pictures" is not a bucket name/],
      ['S3_BUCKET', 'a..b', /not a bucket name/],
      ['S3_BUCKET', 'ab', /not a bucket name/],
      ['S3_ENDPOINT', 'ftp://files.example.com', /S3_ENDPOINT must be an http\(s\) URL/],
      ['S3_ENDPOINT', 'not a url', /S3_ENDPOINT "not a url" is not a URL/],
      ['S3_REGION', 'us east 1', /S3_REGION "us east 1" is not a region name/],
      ['S3_PREFIX', '../escape/', /S3_PREFIX "..\/escape\/" must be empty or folder names/],
      ['S3_PREFIX', 'avatars', /must be empty or folder names ending in "\/"/],
      ['S3_PREFIX', '/avatars/', /must be empty or folder names/],
    ] as const) {
      expect(() => load({ ...keys, [name]: value }), `${name}=${value}`).toThrow(ConfigError);
      expect(() => load({ ...keys, [name]: value }), `${name}=${value}`).toThrow(message);
    }
  });
});
