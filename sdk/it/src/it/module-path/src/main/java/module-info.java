/** A partner's application as a named module on the module path. */
module com.example.partner {
  requires io.formation.sdk;

  // Forms.valuesAs and submit hand this package's records to Jackson, which needs to reach them.
  opens com.example.partner to
      com.fasterxml.jackson.databind;
}
