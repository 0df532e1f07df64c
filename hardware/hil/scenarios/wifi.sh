# Wi-Fi: mac80211_hwsim's two simulated radios; wlan1 is an access point (hostapd, WPA2) in its own network
# namespace, wlan0 the clock's client (wpa_supplicant). Nothing leaves the VM (it has no network card).

# wifi_up: associates wlan0 and puts the default route on it (192.168.77.2 -> .1 across the simulated air).
wifi_up() {
  [ -n "${WIFI_UP:-}" ] && return 0
  local i st start
  modprobe mac80211_hwsim radios=2 || { echo "modprobe mac80211_hwsim failed"; return 1; }
  for i in $(seq 1 50); do [ -e /sys/class/net/wlan1/phy80211 ] && break; sleep 0.1; done
  ip netns add ap
  iw phy "$(cat /sys/class/net/wlan1/phy80211/name)" set netns name ap
  cat > "$T/hostapd.conf" <<CONF
interface=wlan1
driver=nl80211
ssid=aubade-hil
hw_mode=g
channel=6
wpa=2
wpa_key_mgmt=WPA-PSK
rsn_pairwise=CCMP
wpa_passphrase=correct-horse-battery
ctrl_interface=/run/hostapd
CONF
  cat > "$T/wpa.conf" <<CONF
ctrl_interface=/run/wpa_supplicant
network={
  ssid="aubade-hil"
  psk="correct-horse-battery"
  key_mgmt=WPA-PSK
}
CONF
  start=$(now)
  ip netns exec ap hostapd -B -P /run/hostapd.pid -f "$OUT/hostapd.log" "$T/hostapd.conf" || return 1
  wpa_supplicant -B -P /run/wpa.pid -i wlan0 -c "$T/wpa.conf" -f "$OUT/wpa_supplicant.log" || return 1
  for i in $(seq 1 120); do
    st=$(wpa_cli -i wlan0 status 2>/dev/null | sed -n 's/^wpa_state=//p')
    [ "$st" = COMPLETED ] && break
    sleep 0.25
  done
  [ "$st" = COMPLETED ] || { echo "wpa_supplicant state $st"; return 1; }
  figure "wlan0 associated with hostapd (WPA2-PSK) in $(since "$start") s"
  ip addr add 192.168.77.2/24 dev wlan0
  ip netns exec ap ip addr add 192.168.77.1/24 dev wlan1
  ip netns exec ap ip link set lo up
  ip route replace default via 192.168.77.1 dev wlan0
  ip link add dummy0 type dummy && ip addr add 192.168.78.2/24 dev dummy0 && ip link set dummy0 up
  WIFI_UP=1
}
route_via_wifi() { ip route replace default via 192.168.77.1 dev wlan0; }
route_via_wired() { ip route replace default via 192.168.78.1 dev dummy0; }

scenario_wifi() {
  wifi_up || { fail "the simulated Wi-Fi link did not come up"; return; }
  check "the client reaches the access point across the simulated air (1 ping)" eval 'busybox ping -c 1 -W 3 192.168.77.1 > /dev/null'
  CFG=$T/wifi.toml DB=$T/wifi.sqlite
  write_config "$CFG"
  check "the Wi-Fi-only setting is called isWifi (aubade settings get)" eval 'aub settings get | grep -q "^isWifi "'
  aub settings set isWifi true > /dev/null || fail "aubade settings set isWifi true"

  route_via_wifi
  local d=$OUT/doctor-wifi.json
  aub doctor --json > "$d" 2> "$d.err"
  jset "$d" routes="d['network']['routes']" streaming="d['network'].get('streaming')" \
    wireless_ok="[(r['interface'], r['wireless']) for r in d['network']['routes']] == [('wlan0', True)]" \
    allowed_ok="d['network'].get('wifiOnly') is True and d['network'].get('streaming') == 'allowed'"
  check "default route via wlan0: doctor says wireless: $routes" $wireless_ok
  check "...and Wi-Fi-only allows streaming (streaming: $streaming)" $allowed_ok

  route_via_wired
  d=$OUT/doctor-wired.json
  aub doctor --json > "$d" 2> "$d.err"
  aub doctor > "$OUT/doctor-wired.txt" 2>&1
  jset "$d" routes="d['network']['routes']" streaming="d['network'].get('streaming')" \
    wired_ok="[(r['interface'], r['wireless']) for r in d['network']['routes']] == [('dummy0', False)]" \
    refused_ok="'dummy0' in d['network'].get('streaming', '') and d['network'].get('streaming') != 'allowed'"
  check "default route moved to dummy0: doctor says not wireless: $routes" $wired_ok
  check "...and Wi-Fi-only refuses streaming, naming dummy0: $streaming" $refused_ok
  check "...in the text report too" grep -q 'via dummy0 .* not wireless' "$OUT/doctor-wired.txt"

  # Does `aubade play` apply the policy? Only asserted when it does (today only the daemon is meant to).
  if icecast_start; then
    aub station add --name HIL --url "$STREAM_URL" > /dev/null 2>&1
    aub play HIL --for 2s --volume 30 --json > "$OUT/play-wired.jsonl" 2> "$OUT/play-wired.err"
    local rc=$?
    if [ "$rc" != 0 ] && grep -q dummy0 "$OUT/play-wired.err"; then
      pass "aubade play refuses the station over dummy0: $(cat "$OUT/play-wired.err")"
    elif [ "$rc" = 0 ] && grep -Eq '"event": ?"playing"' "$OUT/play-wired.jsonl"; then
      note "aubade play does not apply the Wi-Fi-only policy (it played the station over dummy0); only doctor's verdict is asserted"
    else
      fail "aubade play HIL over dummy0 with Wi-Fi-only: exit $rc without naming dummy0: $(cat "$OUT/play-wired.err")"
    fi
  else
    fail "the local Icecast server did not serve the stream"
  fi
  route_via_wifi
}
