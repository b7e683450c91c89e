/** A partner's module: it reads the SDK from the module path. */
module it.consumer {
  requires io.formation.sdk;

  exports it.consumer;
}
