"""A camera and a laptop speaking FTP to the shop, with Python's own ftplib.

Usage: camera.py HOST PORT EMAIL TOKEN EVENT OTHER_EVENT A.jpg B.jpg C.jpg [tls]
Prints one line per step; exits non-zero at the first surprise.
"""
import ftplib
import socket
import ssl
import struct
import sys

host, port, email, token, event, other, a, b, c = sys.argv[1:10]
tls = len(sys.argv) > 10 and sys.argv[10] == "tls"
port = int(port)


def stor(ftp, name, path):
    """STOR of a whole file. Over TLS the shop closes the data channel without a TLS
    close_notify (as many FTP servers do), which ftplib's storbinary treats as an error
    and FTP clients of cameras and laptops do not."""
    ftp.voidcmd("TYPE I")
    conn = ftp.transfercmd("STOR " + name)
    conn.sendall(read(path))
    if tls:
        try:
            conn.unwrap()
        except (ssl.SSLError, OSError):
            pass
    conn.close()
    ftp.voidresp()


def read(path):
    with open(path, "rb") as f:
        return f.read()


# A wrong token is refused.
try:
    wrong = ftplib.FTP(timeout=10)
    wrong.connect(host, port)
    wrong.login(email, "rsu_" + "0" * 48)
    sys.exit("a wrong token signed in")
except ftplib.error_perm:
    print("wrong token refused")

ftp = ftplib.FTP_TLS(context=ssl._create_unverified_context(), timeout=20) if tls else ftplib.FTP(timeout=20)
ftp.connect(host, port)
ftp.login(email, token)
if tls:
    ftp.prot_p()
listing = [name.strip("/") for name in ftp.nlst()]
assert event in listing and other not in listing, listing
print("root lists", listing)

try:
    ftp.cwd("/" + other)
    sys.exit("another event opened")
except ftplib.error_perm:
    print("other event refused")

ftp.cwd("/" + event)
ftp.mkd("DCIM")
ftp.cwd("DCIM")

# A temporary name, then the rename that makes it a photo.
stor(ftp, "IMG_0001.tmp", a)
ftp.rename("IMG_0001.tmp", "IMG_0001.JPG")
print("renamed")

if tls:
    stor(ftp, "IMG_0002.JPG", b)
else:
    # A transfer cut off halfway (a reset, as when the radio drops), then resumed with REST.
    data = read(b)
    ftp.voidcmd("TYPE I")
    conn = ftp.transfercmd("STOR IMG_0002.JPG")
    conn.sendall(data[: len(data) // 2])
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()
    try:
        ftp.voidresp()
        print("cut answered as done")
    except ftplib.all_errors as e:
        print("cut answered", str(e).split()[0])
    size = ftp.size("IMG_0002.JPG")
    assert 0 < size <= len(data) // 2, (size, len(data))
    # Cameras compare the time of what arrived before they resume.
    mdtm = ftp.sendcmd("MDTM IMG_0002.JPG")
    assert mdtm.startswith("213 ") and len(mdtm.split()[1]) >= 14, mdtm
    print("mdtm", mdtm.split()[1][:8])
    ftp.voidcmd("TYPE I")
    conn = ftp.transfercmd("STOR IMG_0002.JPG", rest=size)
    conn.sendall(data[size:])
    conn.close()
    ftp.voidresp()
    print("resumed from", size)

    # A REST past what arrived would leave a hole: refused.
    ftp.voidcmd("TYPE I")
    try:
        conn = ftp.transfercmd("STOR IMG_0009.JPG", rest=1000)
        conn.close()
        ftp.voidresp()
        sys.exit("a REST past the file's end was taken")
    except ftplib.error_perm:
        print("rest past the end refused")
    # The server keeps a REST for the next transfer; start over from 0.
    ftp.sendcmd("REST 0")

if tls:
    stor(ftp, "DSC_0003.JPG", c)
else:
    # Extended passive mode (EPSV), as IPv6-minded clients and many cameras use.
    ftp.voidcmd("TYPE I")
    answer = ftp.sendcmd("EPSV")
    assert answer.startswith("229 "), answer
    data_port = int(answer.split("(")[1].split("|")[3])
    conn = socket.create_connection((host, data_port), timeout=20)
    ftp.putcmd("STOR DSC_0003.JPG")
    started = ftp.getresp()
    assert started.startswith(("125", "150")), started
    conn.sendall(read(c))
    conn.close()
    ftp.voidresp()
    print("epsv")
print("stored")
ftp.quit()
