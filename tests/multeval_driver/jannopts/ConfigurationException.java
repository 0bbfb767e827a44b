package jannopts;

/** Stub of jannopts' ConfigurationException. */
public class ConfigurationException extends Exception {
  public ConfigurationException(String message) {
    super(message);
  }
}
