package dev.idgen.random;

import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.util.Arrays;
import javax.crypto.SecretKey;

/**
 * An AES key whose {@link #destroy()} zeroes its bytes. {@code SecretKeySpec} keeps a copy that no
 * public API clears (it does not override {@code destroy()}, whose default throws
 * {@code DestroyFailedException}), so the keystream hands the cipher this instead.
 *
 * <p>It owns the array it is given (no copy is made). {@link #getEncoded()} hands out copies; the
 * JDK's AES provider zeroes each one it asks for once it has used it (OpenJDK 17 and 25:
 * {@code CipherCore.init}, {@code AESCipher.checkKeySize}). It refuses to be serialized, so a key
 * never leaves the process that way.
 */
final class ErasableKey implements SecretKey {

    private static final long serialVersionUID = 1L;

    /** Package-private so the tests can see that destroy zeroed it. */
    final byte[] bytes;
    private volatile boolean destroyed;

    /** @param bytes the key; owned from now on, zeroed by {@link #destroy()} */
    ErasableKey(byte[] bytes) {
        this.bytes = bytes;
    }

    @Override
    public String getAlgorithm() {
        return "AES";
    }

    @Override
    public String getFormat() {
        return "RAW";
    }

    @Override
    public byte[] getEncoded() {
        if (destroyed) {
            throw new IllegalStateException("the key was destroyed");
        }
        return bytes.clone();
    }

    @Override
    public void destroy() {
        Arrays.fill(bytes, (byte) 0);
        destroyed = true;
    }

    @Override
    public boolean isDestroyed() {
        return destroyed;
    }

    @Override
    public String toString() {
        return destroyed ? "AES key (destroyed)" : "AES key";
    }

    private void writeObject(ObjectOutputStream out) throws NotSerializableException {
        throw new NotSerializableException("an idgen keystream key is never serialized");
    }
}
