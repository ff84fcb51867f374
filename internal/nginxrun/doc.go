// Package nginxrun runs the real nginx binary: `nginx -t` on a
// configuration, with its messages parsed, and a master process in the
// foreground for startup measurements. The calibrate command uses it to
// time the local nginx, cost --verify to check a rewrite, and the tests
// use it (through parser/nginxtest) as the oracle for what parses, what
// fails and with which message.
//
// Find locates the binary. Test runs `nginx -t` on a configuration in a
// throw-away prefix and returns its messages parsed into Message values,
// its time and its resource use. Start and Instance.Stop run a master
// process in the foreground; Instance.Reload reloads it and times the
// reload, Instance.Workers lists its processes, and Get and GetNoHost
// send it an HTTP request. calibrate (costmodel/calibrate) and the
// rewrite's verification (optimize/verify) run nginx only through these.
//
// Every run is confined to the caller's machine: `nginx -t` really binds
// every listen address (it tolerates only "address in use"), so Test and
// Start first read the configuration, following includes, and refuse to
// run nginx when a server listens anywhere but on loopback or a unix
// socket, or when logs go to a remote syslog. Runs use their own prefix
// and pid file and are stopped by the pid of the process they started.
//
// It does not import testing: the binary links it.
package nginxrun
