"""Writes an AndroidManifest.xml of about LINES lines (default 5000) for scripts/bench/lint.sh: one package with
many exported activities, each with a VIEW filter on its own reverse-domain scheme, plus the auth activity."""
import sys

lines_wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
head = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<manifest xmlns:android="http://schemas.android.com/apk/res/android"',
    '    package="com.contoso.files" android:versionCode="1200">',
    '    <uses-sdk android:minSdkVersion="26" android:targetSdkVersion="34" />',
    '    <application android:label="Contoso Files">',
    '        <activity android:name=".signin.AuthActivity" android:exported="true">',
    '            <intent-filter>',
    '                <action android:name="android.intent.action.VIEW" />',
    '                <category android:name="android.intent.category.DEFAULT" />',
    '                <category android:name="android.intent.category.BROWSABLE" />',
    '                <data android:scheme="com.contoso.files" android:host="signin" />',
    '            </intent-filter>',
    '        </activity>',
]
tail = ['    </application>', '</manifest>']
body = []
index = 0
while len(head) + len(body) + len(tail) + 10 <= lines_wanted:
    body += [
        f'        <activity android:name=".feature{index}.FeatureActivity" android:exported="true"',
        f'            android:label="Feature {index}">',
        '            <intent-filter>',
        '                <action android:name="android.intent.action.VIEW" />',
        '                <category android:name="android.intent.category.DEFAULT" />',
        '                <category android:name="android.intent.category.BROWSABLE" />',
        f'                <data android:scheme="com.contoso.feature{index}" android:host="open"',
        f'                    android:pathPrefix="/items/{index}" />',
        '            </intent-filter>',
        '        </activity>',
    ]
    index += 1
while len(head) + len(body) + len(tail) < lines_wanted:
    body.append(f'        <!-- padding {len(body)} -->')
sys.stdout.write("\n".join(head + body + tail) + "\n")
