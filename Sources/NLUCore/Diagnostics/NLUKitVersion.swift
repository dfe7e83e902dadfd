/// The NLUKit release this build is.
public enum NLUKitVersion {
    public static let string = "0.1.0"
}
