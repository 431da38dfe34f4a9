import "server-only";

// Every module that registers an onServerStart hook is imported here, once, by boot().
import "./retention";
// Demo mode first: its hook waits until the simulator listens, so the worker starts with a platform.
import "../demo/start";
import "../worker/start";
import "../worker/schedules";
