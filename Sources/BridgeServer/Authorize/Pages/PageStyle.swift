import Crypto
import Foundation

/// The one stylesheet of the sign-in pages, inlined and allowed by its hash in the CSP (`style-src 'sha256-…'`),
/// so pages need no second request and no `'unsafe-inline'`. Mobile first: 390 px phones get a full-width card,
/// tablets and desktops a centred one, with the privacy link right under it; touch targets are at least 48 px (WCAG 2.5.5) and inputs 16 px text so iOS
/// WebViews do not zoom in.
enum PageStyle {
    static let css = """
        *,*::before,*::after{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
        body{margin:0;min-height:100vh;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:#1b1f24;background:#eef1f5;display:flex;flex-direction:column;align-items:center}
        main{width:100%;max-width:30rem;padding:1.5rem 1.25rem 0}
        .card{background:#fff;border-radius:14px;padding:1.75rem 1.5rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
        .service{margin:0 0 1.25rem;font-size:.95rem;font-weight:600;color:#3d4a5c;letter-spacing:.01em}
        h1{font-size:1.6rem;line-height:1.25;margin:0 0 .35rem}
        .lead{margin:0 0 1.5rem;color:#4a5563;overflow-wrap:anywhere}
        label{display:block;font-weight:600;margin:0 0 .35rem}
        input[type=text],input[type=email],input[type=password]{display:block;width:100%;min-height:48px;padding:.7rem .85rem;font-size:1rem;border:1px solid #9aa5b4;border-radius:10px;background:#fff;color:inherit;margin:0 0 1.1rem}
        input:focus,button:focus{outline:3px solid #7aa7f5;outline-offset:2px}
        button{display:block;width:100%;min-height:52px;padding:.8rem 1rem;font-size:1.05rem;font-weight:600;border-radius:10px;border:1px solid #1f5fd1;background:#1f5fd1;color:#fff;cursor:pointer;margin:.25rem 0 0}
        button.secondary{background:#fff;color:#1f5fd1;margin-top:.75rem}
        a.button{display:block;min-height:52px;padding:.8rem 1rem;font-size:1.05rem;font-weight:600;border-radius:10px;background:#1f5fd1;color:#fff;text-align:center;text-decoration:none;margin:0 0 .75rem}
        .hint{color:#4a5563;font-size:.95rem;margin:0 0 1.5rem}
        .or{display:flex;align-items:center;gap:.75rem;color:#4a5563;margin:0 0 1.25rem}.or::before,.or::after{content:"";flex:1;border-top:1px solid #d5dbe3}
        .error{background:#fdecec;border:1px solid #e5a3a3;color:#8a1c1c;border-radius:10px;padding:.75rem .9rem;margin:0 0 1.25rem}
        ul.scopes{margin:0 0 1.5rem;padding:0;list-style:none}
        ul.scopes li{padding:.8rem .9rem;border:1px solid #d5dbe3;border-radius:10px;margin:0 0 .5rem;background:#f7f9fb}
        .who{color:#4a5563;margin:0 0 1.25rem;overflow-wrap:anywhere}
        details{margin-top:1.25rem;color:#4a5563;font-size:.9rem}
        code{overflow-wrap:anywhere}
        footer{padding:.5rem 1.25rem 1.5rem;text-align:center;font-size:.95rem}
        footer a{color:#1f5fd1;display:inline-block;min-height:48px;line-height:48px;padding:0 .5rem}
        @media (min-width:700px){main{padding-top:12vh}.card{padding:2.5rem 2.25rem}h1{font-size:1.9rem}}
        """

    /// The CSP source that allows exactly `css` (CSP 3 §2.3.1 hash-source).
    static let hashSource: String = {
        let digest = SHA256.hash(data: Array(css.utf8))
        return "'sha256-\(Data(digest).base64EncodedString())'"
    }()
}
