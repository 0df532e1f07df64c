#!/usr/bin/env python3
"""Aubade's station-directory and podcast benchmark (not a test): how long a search takes against a local mirror,
and how long a feed of 3,000 episodes takes to follow.

  search           `aubade station search jazz --limit 100` against Tests/Fixtures/directory_server.py on
                   127.0.0.1 holding 5,000 stations (a tenth of them jazz): spawn -> the table printed
  search --json    the same, printing JSON
  curl             the same request by curl (the mirror's own time and the HTTP round trip, for scale)
  version          `aubade version`: the process's own start-up and exit, for scale
  podcast add      `aubade podcast add` of a 3,000-item RSS feed (iTunes tags, one enclosure each) served by
                   Tests/Fixtures/feed_server.py: download, parse, keep the newest, store — spawn -> answer
  ElementTree      Python's xml.etree parsing the same bytes in this process, for scale

Target (issue 24): a search answers in under 0.3 s beside its mirror (the real directory adds the internet's
round trip). Each figure is the median of BENCH_RUNS (5) runs.

Usage: bench/directory_bench.py --aubade PATH   (env: BENCH_RUNS)
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(__file__))
from table import print_table

STATIONS = 5000
TARGET_SECONDS = 0.3
HERE = os.path.dirname(os.path.abspath(__file__))
SERVER = os.path.join(HERE, '..', 'Tests', 'Fixtures', 'directory_server.py')
FEEDS = os.path.join(HERE, '..', 'Tests', 'Fixtures', 'feed_server.py')
ITEMS = 3000
FEED_TARGET_SECONDS = 1.0


def feed_xml(items):
    entries = ''.join(
        f'<item><title>Episode {i}: a morning of news</title><guid>ep-{i}</guid>'
        f'<pubDate>{["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][i % 7]}, {1 + i % 28:02d} Nov 2026 06:00:00 GMT</pubDate>'
        f'<enclosure url="https://news.example/{i}.mp3" type="audio/mpeg" length="{1000000 + i}"/>'
        f'<itunes:duration>{10 + i % 50}:00</itunes:duration><itunes:episodeType>full</itunes:episodeType>'
        f'<description>{"Today on the programme. " * 8}</description></item>\n' for i in range(items))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">'
            f'<channel><title>Bench News</title>{entries}</channel></rss>\n')


def podcast_rows(aubade, runs, d, env):
    import xml.etree.ElementTree as ET
    folder = os.path.join(d, 'feeds')
    os.makedirs(folder)
    xml = feed_xml(ITEMS)
    with open(os.path.join(folder, 'news.xml'), 'w') as f:
        f.write(xml)
    server = subprocess.Popen([sys.executable, FEEDS, folder], stdout=subprocess.PIPE)
    try:
        base = f'http://127.0.0.1:{server.stdout.readline().decode().strip()}'
        times = []
        for run in range(runs):
            db = os.path.join(d, f'podcasts-{run}.sqlite')
            times.append(timed([aubade, 'podcast', 'add', f'{base}/news.xml', '--name', 'News', '--allow-local',
                                '--db', db], env)[0])
        parse = []
        for _ in range(runs):
            start = time.monotonic()
            ET.fromstring(xml.encode())
            parse.append(time.monotonic() - start)
        add = statistics.median(times)
        return [(f'podcast add, a feed of {ITEMS} items ({len(xml) // 1024} KiB)', f'{add * 1000:.0f} ms',
                 f'< {FEED_TARGET_SECONDS * 1000:.0f} ms', add < FEED_TARGET_SECONDS),
                ('ElementTree parse of the same feed', f'{statistics.median(parse) * 1000:.0f} ms', 'for scale', True)]
    finally:
        server.kill()
        server.wait()


def timed(args, env=None):
    start = time.monotonic()
    done = subprocess.run(args, env=env, capture_output=True)
    elapsed = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({done.returncode}): {done.stderr.decode().strip()}")
    return elapsed, done.stdout.decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--aubade', required=True)
    a = ap.parse_args()
    runs = int(os.environ.get('BENCH_RUNS', '5'))
    with tempfile.TemporaryDirectory() as d:
        stations = [{'stationuuid': f'{i:08x}-0000-4000-8000-{i:012x}', 'name': f"{'Jazz' if i % 10 == 0 else 'Talk'} Radio {i}",
                     'url_resolved': f'http://radio{i}.example/live.mp3', 'countrycode': 'DE', 'tags': 'jazz' if i % 10 == 0 else 'talk',
                     'codec': 'MP3' if i % 3 else 'AAC', 'bitrate': 128, 'hls': 0, 'lastcheckok': 1, 'clickcount': i % 997}
                    for i in range(STATIONS)]
        path = os.path.join(d, 'stations.json')
        with open(path, 'w') as f:
            json.dump(stations, f)
        server = subprocess.Popen([sys.executable, SERVER, 'ok', path, os.path.join(d, 'log')], stdout=subprocess.PIPE)
        try:
            port = server.stdout.readline().decode().strip()
            base = f'http://127.0.0.1:{port}'
            config = os.path.join(d, 'aubade.toml')
            with open(config, 'w') as f:
                f.write(f'[directory]\nservers = ["{base}"]\n')
            env = dict(os.environ, AUBADE_CONFIG='', AUBADE_RUNTIME_DIR=os.path.join(d, 'run'))
            common = ['--allow-local', '--config', config, '--db', os.path.join(d, 'aubade.sqlite')]
            search = [a.aubade, 'station', 'search', 'jazz', '--limit', '100'] + common
            _, table = timed(search, env)
            found = len(table.splitlines()) - 1
            rows = []
            medians = {}
            for name, args in [('search', search), ('search --json', search + ['--json']),
                               ('curl', ['curl', '-sf', '-A', 'bench', f'{base}/json/stations/search?name=jazz&hidebroken=true'
                                         '&order=clickcount&reverse=true&limit=100']),
                               ('version', [a.aubade, 'version'])]:
                medians[name] = statistics.median(timed(args, env)[0] for _ in range(runs))
            rows.append((f'search, {found} of {STATIONS} stations shown', f"{medians['search'] * 1000:.0f} ms",
                         f'< {TARGET_SECONDS * 1000:.0f} ms', medians['search'] < TARGET_SECONDS))
            rows.append(('search --json', f"{medians['search --json'] * 1000:.0f} ms", f'< {TARGET_SECONDS * 1000:.0f} ms',
                         medians['search --json'] < TARGET_SECONDS))
            rows.append(('curl, the same request', f"{medians['curl'] * 1000:.0f} ms", 'for scale', True))
            rows.append(('aubade version', f"{medians['version'] * 1000:.0f} ms", 'for scale', True))
            rows += podcast_rows(a.aubade, runs, d, env)
            print_table(rows, f'Station directory and podcasts (median of {runs} runs)')
        finally:
            server.kill()
            server.wait()


if __name__ == '__main__':
    main()
