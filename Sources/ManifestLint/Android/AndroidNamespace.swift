/// The XML namespace of `android:` attributes in AndroidManifest.xml.
public enum AndroidNamespace {
    public static let uri = "http://schemas.android.com/apk/res/android"
}
