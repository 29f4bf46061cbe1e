import AuthBase
import Foundation

enum Html {
    /// Escapes text for element content and quoted attribute values.
    static func escape(_ text: String) -> String { HTMLText.escaped(text) }

    /// A complete page: inline CSS only, no scripts (the CSP says so too).
    static func page(title: String, style: String, body: String, refreshSeconds: Int? = nil) -> String {
        let refresh = refreshSeconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
            \(refresh)
            <title>\(escape(title))</title>
            <style>\(baseStyle)\(style)</style>
            </head>
            <body>
            \(body)
            </body>
            </html>
            """
    }

    static func errorPage(title: String, message: String) -> String {
        page(
            title: title, style: "",
            body: """
                <main class="card">
                <p class="banner">Local test environment — portal-auth-emulator</p>
                <h1>\(escape(title))</h1>
                <p>\(escape(message))</p>
                </main>
                """)
    }

    static let baseStyle = """
        *{box-sizing:border-box}
        body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
          font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Cantarell,sans-serif;background:#f0f2f5;color:#1f1f1f}
        .card{width:min(440px,94vw);background:#fff;border-radius:14px;padding:28px 32px 24px;
          box-shadow:0 1px 3px rgba(0,0,0,.12),0 8px 24px rgba(0,0,0,.06)}
        .banner{margin:-8px -12px 18px;padding:8px 12px;border-radius:8px;background:#fff4ce;color:#5c4400;
          font-size:13px;font-weight:600;text-align:center}
        h1{font-size:22px;font-weight:500;margin:6px 0 4px}
        .sub{color:#5f6368;margin:0 0 18px}
        .error{background:#fce8e6;color:#a50e0e;border-radius:8px;padding:8px 12px;margin:0 0 14px}
        .accounts{list-style:none;margin:0 0 12px;padding:0;border-top:1px solid #e3e3e3}
        .accounts li{border-bottom:1px solid #e3e3e3}
        .accounts label{display:flex;align-items:center;gap:12px;padding:10px 6px;cursor:pointer}
        .accounts label:hover{background:#f6f8fc}
        .avatar{flex:none;width:32px;height:32px;border-radius:50%;display:flex;align-items:center;justify-content:center;
          color:#fff;font-weight:600;background:#5e81f4}
        .who{display:flex;flex-direction:column;min-width:0}
        .who .name{font-weight:500}
        .who .mail{color:#5f6368;font-size:13px;overflow:hidden;text-overflow:ellipsis}
        .tag{margin-left:auto;font-size:12px;color:#5f6368}
        .other{display:block;margin:14px 0 6px;font-weight:500}
        input[type=email],input[type=text]{width:100%;padding:10px 12px;border:1px solid #c4c7c5;border-radius:8px;font:inherit}
        fieldset{border:1px solid #e3e3e3;border-radius:10px;margin:16px 0 0;padding:8px 12px 10px}
        legend{padding:0 6px;font-weight:500}
        fieldset label{display:block;padding:4px 0}
        .hint{color:#5f6368;font-size:13px;margin-left:24px}
        /* Continue comes first in the form so Enter submits it; row-reverse still shows it on the right. */
        .actions{display:flex;flex-direction:row-reverse;justify-content:flex-start;gap:10px;margin-top:22px}
        button{font:inherit;font-weight:500;border-radius:20px;padding:9px 22px;cursor:pointer;border:1px solid transparent}
        button.secondary{background:transparent;color:#0b57d0;border-color:#c4c7c5}
        button.primary{background:#0b57d0;color:#fff}
        footer{margin-top:18px;color:#80868b;font-size:12px;text-align:center}
        """
}
