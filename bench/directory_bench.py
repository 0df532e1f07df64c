#!/usr/bin/env python3
"""Aubade's station-directory benchmark (not a test): how long a search takes against a local mirror.

  search           `aubade station search jazz --limit 100` against Tests/Fixtures/directory_server.py on
                   127.0.0.1 holding 5,000 stations (a tenth of them jazz): spawn -> the table printed
  search --json    the same, printing JSON
  curl             the same request by curl (the mirror's own time and the HTTP round trip, for scale)
  version          `aubade version`: the process's own start-up and exit, for scale

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
            print_table(rows, f'Station directory (median of {runs} runs)')
        finally:
            server.kill()
            server.wait()


if __name__ == '__main__':
    main()
