/** Records and value types read from the Formation Service. */
package io.formation.sdk.model;
