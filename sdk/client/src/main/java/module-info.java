/**
 * Java client for the Document Set Formation Service. Start with {@link
 * io.formation.sdk.FormationClient}.
 */
module io.formation.sdk {
  requires transitive okhttp3;
  requires transitive com.fasterxml.jackson.databind;
  requires com.fasterxml.jackson.datatype.jsr310;

  exports io.formation.sdk;
  exports io.formation.sdk.model;

  opens io.formation.sdk.internal.json to
      com.fasterxml.jackson.databind;
}
