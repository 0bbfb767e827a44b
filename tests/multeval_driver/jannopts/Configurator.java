package jannopts;

/** Stub of jannopts' Configurator: the oracle never configures options (verbosity stays 0). */
public class Configurator {
  public void configure(Object configurable) throws ConfigurationException {
  }
}
