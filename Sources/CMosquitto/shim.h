// libmosquitto (Debian's libmosquitto-dev, the Eclipse Mosquitto client library): the MQTT client the daemon's
// MQTT service is built on (AubadeMQTT), with MQTT 5's reason codes and subscription options.
#include <mosquitto.h>
#include <mqtt_protocol.h>
